import CGStreamer
import GLibSupport

/// The `playbin` element and what hangs off it: its bus watch, the signal handlers connected
/// to it (or to its children), the last state it reported, and the bus epoch marker.
///
/// **Thread:** loop thread only. Owns one reference to `playbin`; ``teardown()`` sets it to
/// NULL, disconnects every handler, destroys the bus watch and drops the reference.
final class PlaybinPipeline {
    /// The `playbin` element (an owned reference), nil when it could not be created or after teardown.
    private(set) var element: UnsafeMutablePointer<GstElement>?
    /// The state `playbin` last reported on the bus (or was set to synchronously).
    var state: GstState = GST_STATE_NULL
    /// playbin's own state changes (old, new) as seen on the bus, for diagnostics and tests.
    private(set) var transitions: [(GstState, GstState)] = []
    /// Seqnum of the marker posted at the last load/stop; bus messages before it are stale.
    var epochMarkerSeqnum: guint32?
    /// Sinks to ask for the position instead of playbin, whose answer is the maximum over all
    /// its sinks, a feature's own text sink included (``FeaturePipeline/queryPositionFromSinks(_:)``); empty: ask playbin.
    /// Borrowed (the ``SinkSet`` owns them).
    var positionSinks: [UnsafeMutablePointer<GstElement>] = []
    /// The video sink set on playbin (borrowed from the ``SinkSet``), asked on its own while the
    /// audio sink's answer needs correcting (``ScaledReverseSegment``).
    var videoSink: UnsafeMutablePointer<GstElement>?
    /// The audio sink set on playbin (borrowed from the ``SinkSet``), whose segment tells whether
    /// its position answer needs correcting (``ScaledReverseSegment``).
    var audioSink: UnsafeMutablePointer<GstElement>?
    /// While a route plays the media (``Engine/beginRoute(_:)``): a request for PLAYING sets PAUSED.
    var holdsPaused = false
    private var busWatch: TimerSource?
    private var signalHandlers: [(instance: UnsafeMutableRawPointer, id: gulong)] = []

    /// Creates `playbin` (`gst_element_factory_make`, floating ref sunk); nil when the element is missing.
    init?() {
        guard let made = gst_element_factory_make("playbin", "gstplay-playbin") else { return nil }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(made))
        element = made
    }

    /// playbin as a GObject, for property calls.
    var object: UnsafeMutableRawPointer? { element.map { UnsafeMutableRawPointer($0) } }

    /// Watches playbin's bus on `loop` (see ``MainLoopThread/addBusWatch(_:_:)``).
    func watchBus(on loop: MainLoopThread, _ handler: @escaping (UnsafeMutablePointer<GstMessage>) -> Void) {
        guard let element, let bus = gst_element_get_bus(element) else { return }
        busWatch = loop.addBusWatch(bus, handler)
        gst_object_unref(UnsafeMutableRawPointer(bus))
    }

    /// Remembers a handler connected on `instance` (playbin or an object it outlives) so that
    /// ``teardown()`` disconnects it.
    func track(handler id: gulong, on instance: UnsafeMutableRawPointer) {
        signalHandlers.append((instance, id))
    }

    /// `gst_element_set_state`; returns GStreamer's answer. SUCCESS and NO_PREROLL update ``state``
    /// at once (ASYNC ones arrive on the bus).
    @discardableResult
    func setState(_ target: GstState) -> GstStateChangeReturn {
        guard let element else { return GST_STATE_CHANGE_FAILURE }
        let result = gst_element_set_state(element, holdsPaused && target == GST_STATE_PLAYING ? GST_STATE_PAUSED : target)
        if target == GST_STATE_READY || target == GST_STATE_NULL { state = target }
        return result
    }

    /// Records a state change playbin posted (old → new).
    func noteTransition(from old: GstState, to new: GstState) {
        state = new
        if transitions.count < 4096 { transitions.append((old, new)) }
    }

    /// Forgets the transitions seen for the previous media.
    func forgetTransitions() { transitions.removeAll() }

    /// Posts a new epoch marker: until it comes back through the bus, messages are stale.
    func startNewEpoch() {
        guard let element else { return }
        epochMarkerSeqnum = BusMarker.post(.epoch, on: element)
    }

    /// The stream position (`gst_element_query_position`, TIME), nil when unknown: the furthest
    /// answer of ``positionSinks`` when set, else playbin's — except while the audio sink's answer
    /// runs ahead (played backwards through `scaletempo`, ``ScaledReverseSegment``): then the
    /// furthest of the video sink's and the audio sink's corrected answers.
    func queryPosition() -> MediaTime? {
        guard let element else { return nil }
        let audioExcess = audioSink.flatMap { ScaledReverseSegment.excess(of: $0) }
        var sinks = positionSinks
        if sinks.isEmpty, audioExcess != nil { sinks = [videoSink, audioSink].compactMap { $0 } }
        var value: gint64 = 0
        if !sinks.isEmpty {
            // None answering (all flushing for a seek) is no answer: playbin would add the text
            // sink's, which runs ahead (3.9 s, the held cue's end, read during a seek to 3.0 s).
            let answers = sinks.compactMap { sink -> gint64? in
                guard gst_element_query_position(sink, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
                return sink == audioSink ? max(0, value - gint64(audioExcess ?? 0)) : value
            }
            return answers.max().map { MediaTime(nanoseconds: Int64($0)) }
        }
        guard gst_element_query_position(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return MediaTime(nanoseconds: Int64(value))
    }

    /// The duration (`gst_element_query_duration`, TIME), nil when unknown.
    func queryDuration() -> MediaTime? {
        guard let element else { return nil }
        var value: gint64 = 0
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &value) != 0, value > 0 else { return nil }
        return MediaTime(nanoseconds: Int64(value))
    }

    /// Whether the media can seek in TIME (`GST_QUERY_SEEKING`).
    func querySeekable() -> Bool {
        guard let element, let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return false }
        defer { gst_query_unref(query) }
        var seekable: gboolean = 0
        if gst_element_query(element, query) != 0 { gst_query_parse_seeking(query, nil, &seekable, nil, nil) }
        return seekable != 0
    }

    /// State NULL, handlers disconnected, bus watch destroyed, reference dropped. Idempotent.
    func teardown() {
        guard let element else { return }
        gst_element_set_state(element, GST_STATE_NULL)
        state = GST_STATE_NULL
        for handler in signalHandlers { g_signal_handler_disconnect(handler.instance, handler.id) }
        signalHandlers.removeAll()
        positionSinks.removeAll()
        videoSink = nil
        audioSink = nil
        busWatch?.destroy()
        busWatch = nil
        gst_object_unref(UnsafeMutableRawPointer(element))
        self.element = nil
    }
}
