import BackendCore
import CGStreamer
import GLibSupport
import Synchronization

/// The elements of an adaptive stream inside `playbin`, found as they are added: the demuxer
/// (`hlsdemux`, `hlsdemux2`, `dashdemux`, `dashdemux2`) and decodebin's buffering `multiqueue`s.
///
/// **Threads:** `deep-element-added` / `deep-element-removed` and the demuxer's sink-pad probe run
/// on GStreamer's streaming threads; the loop thread reads through ``withDemuxer(_:)`` and
/// ``bufferedSeconds()``. All state sits behind one `Mutex`. Each element kept holds one
/// reference (`gst_object_ref`), dropped when it leaves the bin, at ``reset(uri:)`` or at
/// ``close()`` (after which none is kept).
///
/// The master playlist is read from the bytes the demuxer itself receives (a probe on its sink
/// pad): at the playlist's EOS, before the demuxer parses it, the start variant is chosen and
/// set as the demuxer's `connection-speed`, so even the first segment obeys the policy.
final class AdaptiveElements: Sendable {
    /// An element reference carried across threads (GStreamer objects are thread-safe refcounted).
    struct Ref: @unchecked Sendable, Equatable {
        let pointer: UnsafeMutablePointer<GstElement>
        var object: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
    }

    /// What the streaming threads found.
    struct Found: Sendable {
        var demuxer: Ref?
        /// Factory name of the demuxer, e.g. `hlsdemux`.
        var demuxerKind: String?
        var queues: [Ref] = []
        /// The queues added after the first variant switch was asked for: the groups of variant
        /// switches (``isSwitchQueue(_:)``); a subset of `queues`, holding no reference of its own.
        var switchQueues: [Ref] = []
        /// The `queue` of the demuxer's download bin (legacy adaptivedemux's `srcbin`): where a
        /// downloaded fragment waits, in bytes, while the demuxer's source pad is blocked.
        var sourceQueues: [Ref] = []
        var manifest: [UInt8] = []
        /// The playlist as parsed at its EOS.
        var playlist: MasterPlaylist.Kind?
        /// The variant chosen for the start (nil: the demuxer's own choice).
        var initial: Int?
        /// The player is shutting down: elements offered now are not kept (``close()``).
        var closed = false
        /// The master playlist's URI (the loaded URI), for resolving variant URIs; set by
        /// ``reset(uri:)`` and kept across ``release(closing:)``.
        var baseURI = ""
    }

    private let state = Mutex(Found())
    /// The ABR decisions, made on the demuxer's thread (see ``VariantSelector``).
    let selector: VariantSelector

    /// Demuxer factories handled.
    static let demuxers: Set<String> = ["hlsdemux", "hlsdemux2", "dashdemux", "dashdemux2"]

    init(policy: AdaptivePolicy) { selector = VariantSelector(policy: policy) }

    /// Applies a new policy at once (loop thread): a changed choice becomes the demuxer's
    /// `connection-speed`, set off the loop thread (``setConnectionSpeedOffLoop(_:on:)``).
    func update(policy: AdaptivePolicy, loop: FeatureLoop?) {
        if let speed = selector.update(policy: policy, bufferSeconds: bufferedSeconds()), let loop {
            setConnectionSpeedOffLoop(speed, on: loop)
        }
    }

    /// Sets the demuxer's `connection-speed` on the player's worker (`FeatureLoop.runOffLoop`,
    /// in order with the other blocking calls), holding a reference to the demuxer for the call:
    /// 1.22's `adaptivedemux` sets it under its manifest lock, which a live playlist refresh
    /// holds while it downloads, so set from the loop thread in an outage it stopped the
    /// player's timers and commands until the request gave up (seen in `LiveOutageLoopTests`:
    /// no answer within 4 s). Loop thread.
    func setConnectionSpeedOffLoop(_ speed: UInt32, on loop: FeatureLoop) {
        guard let demuxer = retainedDemuxer() else { return }
        let ref = Ref(pointer: demuxer)
        loop.runOffLoop {
            CGStreamer_set_uint(ref.object, "connection-speed", speed)
            gst_object_unref(ref.object)
        }
    }

    /// Sets the demuxer's `connection-speed` (kbit/s), which picks the next fragment's variant.
    func setConnectionSpeed(_ speed: UInt32) {
        _ = withDemuxer { demuxer, _ in CGStreamer_set_uint(demuxer, "connection-speed", speed) }
    }

    /// A snapshot of what was found.
    var found: Found { state.withLock { $0 } }

    /// Forgets the previous media: drops every reference (loop thread, at load and stop).
    func reset(uri: String) {
        selector.reset()
        release(closing: false, baseURI: uri)
    }

    /// Player teardown (loop thread): drops every reference, and from now on keeps none of the
    /// elements the streaming threads still report until the core disconnects the signals.
    func close() {
        selector.reset()
        release(closing: true)
    }

    private func release(closing: Bool, baseURI: String? = nil) {
        let old = state.withLock { found -> Found in
            let old = found
            found = Found()
            found.closed = old.closed || closing
            found.baseURI = baseURI ?? old.baseURI
            return old
        }
        if let demuxer = old.demuxer { gst_object_unref(demuxer.object) }
        for queue in old.queues + old.sourceQueues { gst_object_unref(queue.object) }
    }

    /// Runs `body` with a reference to the demuxer (held for the call), when there is one.
    func withDemuxer<T>(_ body: (UnsafeMutableRawPointer, String) -> T) -> T? {
        guard let (ref, kind) = state.withLock({ s -> (Ref, String)? in
            guard let d = s.demuxer, let k = s.demuxerKind else { return nil }
            gst_object_ref(d.object)
            return (d, k)
        }) else { return nil }
        defer { gst_object_unref(ref.object) }
        return body(ref.object, kind)
    }

    /// The demuxer with a reference the caller drops (`gst_object_unref`), nil when there is none. Any thread.
    func retainedDemuxer() -> UnsafeMutablePointer<GstElement>? {
        state.withLock { s in s.demuxer.map { gst_object_ref($0.object); return $0.pointer } }
    }

    /// True when `element` is a multiqueue added after the first variant switch was asked for:
    /// decodebin's group for a variant switch (`hlsdemux` exposes new pads for each). Any thread.
    func isSwitchQueue(_ element: UnsafeMutableRawPointer) -> Bool {
        state.withLock { $0.switchQueues.contains { $0.object == element } }
    }

    // MARK: Streaming threads

    /// `deep-element-added`: keeps demuxers and buffering queues; `parent` is the bin it went into.
    func added(_ element: UnsafeMutablePointer<GstElement>, parent: UnsafeMutableRawPointer?) {
        guard let factory = gst_element_get_factory(element),
              let cName = gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory))) else { return }
        let name = String(cString: cName)
        g_free(cName)
        let object = UnsafeMutableRawPointer(element)
        if Self.demuxers.contains(name) {
            let minBuffer = selector.policy.minBufferSeconds
            // The app's ABR picks a variant by setting connection-speed; with the demuxer's own
            // margin at 1.0 the speed maps to exactly one variant (AdaptivePolicy.connectionSpeed).
            if CGStreamer_has_property(object, "bitrate-limit") != 0 { CGStreamer_set_double(object, "bitrate-limit", 1.0) }
            if CGStreamer_has_property(object, "bandwidth-target-ratio") != 0 { CGStreamer_set_double(object, "bandwidth-target-ratio", 1.0) }
            // decodebin's buffering multiqueue posts BUFFERING 100 % when a queue holds 99 % of
            // max-size-time; 1.25 × the buffer to refill makes that at least minBufferSeconds.
            // Floor 2 s: with a 1 s queue hlsdemux's variant switch once hung without any
            // BUFFERING message (the new group could not start while the old one drained).
            if let minBuffer, let parent, CGStreamer_has_property(parent, "max-size-time") != 0 {
                CGStreamer_set_uint64(parent, "max-size-time", guint64(max(minBuffer, AdaptivePolicy.minimumBufferFloor) * 1.25 * 1e9))
            }
            gst_object_ref(object)
            let (kept, replaced) = state.withLock { s -> (Bool, Ref?) in
                guard !s.closed else { return (false, nil) }
                let old = s.demuxer
                s.demuxer = Ref(pointer: element)
                s.demuxerKind = name
                s.manifest = []
                s.playlist = nil
                return (true, old)
            }
            if let replaced { gst_object_unref(replaced.object) }
            guard kept else { gst_object_unref(object); return }
            watchManifest(of: element)
        } else if name == "multiqueue" || (name == "queue" && isInDemuxer(parent)) {
            let afterSwitch = selector.hasSwitched
            gst_object_ref(object)
            let kept = state.withLock { s -> Bool in
                guard !s.closed else { return false }
                if name == "queue" { s.sourceQueues.append(Ref(pointer: element)); return true }
                s.queues.append(Ref(pointer: element))
                if afterSwitch { s.switchQueues.append(Ref(pointer: element)) }
                return true
            }
            if !kept { gst_object_unref(object) }
        }
    }

    /// True when `bin` (an element's parent) is a bin inside the demuxer (its download bin).
    private func isInDemuxer(_ bin: UnsafeMutableRawPointer?) -> Bool {
        guard let bin, let grandparent = gst_object_get_parent(CGStreamer_as_object(bin)) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(grandparent)) }
        return state.withLock { $0.demuxer?.object == UnsafeMutableRawPointer(grandparent) }
    }

    /// `deep-element-removed`: drops the reference when the element was kept.
    func removed(_ element: UnsafeMutablePointer<GstElement>) {
        let ref = Ref(pointer: element)
        let dropped = state.withLock { s -> Ref? in
            if s.demuxer == ref { s.demuxer = nil; return ref }
            s.switchQueues.removeAll { $0 == ref }
            if let i = s.queues.firstIndex(of: ref) { return s.queues.remove(at: i) }
            if let i = s.sourceQueues.firstIndex(of: ref) { return s.sourceQueues.remove(at: i) }
            return nil
        }
        if let dropped { gst_object_unref(dropped.object) }
    }

    /// Adds a probe on the demuxer's sink pad that collects the playlist bytes and decides at EOS.
    private func watchManifest(of element: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(element, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = CallbackBox(self)
        let mask = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        // The probe lives as long as the pad; it removes itself after the playlist's EOS.
        _ = gst_pad_add_probe(pad, mask, { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            let elements = CallbackBox<AdaptiveElements>.from(data).value
            if let buffer = CGStreamer_probe_info_buffer(info) {
                elements.append(buffer)
            } else if let event = CGStreamer_probe_info_event(info), CGStreamer_event_type(event) == GST_EVENT_EOS {
                elements.manifestComplete()
                return GST_PAD_PROBE_REMOVE
            }
            return GST_PAD_PROBE_OK
        }, box.retainedPointer, callbackBoxRelease)
    }

    private func append(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return }
        defer { gst_buffer_unmap(buffer, &map) }
        let bytes = UnsafeBufferPointer(start: map.data, count: Int(map.size))
        state.withLock { s in
            if s.manifest.count + bytes.count <= 4 << 20 { s.manifest.append(contentsOf: bytes) }
        }
    }

    /// The playlist is complete: parse it and set the start variant on the demuxer.
    private func manifestComplete() {
        let (text, base) = state.withLock { s -> (String, String) in
            defer { s.manifest = [] }
            return (String(decoding: s.manifest, as: UTF8.self), s.baseURI)
        }
        let playlist = AdaptiveManifest.parse(text, baseURI: base)
        var start: (index: Int, speed: UInt32)?
        if case .master(let variants) = playlist { start = selector.start(with: variants) }
        state.withLock { s in
            s.playlist = playlist
            s.initial = start?.index
        }
        if let start { setConnectionSpeed(start.speed) }
    }

    /// `sync-message::element` on playbin's bus, on the thread that posted it: a finished
    /// fragment's `adaptive-streaming-statistics` goes to the ``selector``, with the buffer level
    /// read now (``bufferedSeconds()``), before the demuxer picks the next fragment, and a changed
    /// choice is set at once; a media playlist's (`hlsdemux`'s, with `bitrate`) is noted with the
    /// decision in force for the switch's reason (``VariantSelector/playlistFetched(uri:)``).
    func messagePosted(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let structure = gst_message_get_structure(message),
              gst_structure_has_name(structure, "adaptive-streaming-statistics") != 0,
              let uri = gst_structure_get_string(structure, "uri") else { return }
        if gst_structure_has_field(structure, "bitrate") != 0 { return selector.playlistFetched(uri: String(cString: uri)) }
        var downloadTime: guint64 = 0, size: guint64 = 0
        guard gst_structure_get_uint64(structure, "fragment-download-time", &downloadTime) != 0,
              gst_structure_get_uint64(structure, "fragment-size", &size) != 0,
              let speed = selector.fragmentDownloaded(uri: String(cString: uri), cumulativeBytes: Int(clamping: size),
                                                      seconds: Double(downloadTime) / 1e9, bufferSeconds: bufferedSeconds(),
                                                      counting: FragmentSizeCounting(demuxer: found.demuxerKind)) else { return }
        setConnectionSpeed(speed)
    }

    // MARK: Any thread

    /// Media buffered ahead, in seconds: hlsdemux2's `current-level-time-video`, otherwise
    /// decodebin's multiqueues as ``BufferLevel/seconds(in:downloaded:bitsPerSecond:)`` reads them (bytes at
    /// the bitrate of the variant asked for).
    /// Any thread (the loop thread's refresh, the demuxer's thread when deciding): GObject
    /// property reads on references held for the call.
    func bufferedSeconds() -> Double? {
        if let level = withDemuxer({ demuxer, kind -> Double? in
            guard CGStreamer_has_property(demuxer, "current-level-time-video") != 0 else { return nil }
            return Double(CGStreamer_get_uint64(demuxer, "current-level-time-video")) / 1e9
        }), let level { return level }
        let (queues, sources) = state.withLock { s -> ([Ref], [Ref]) in
            for q in s.queues + s.sourceQueues { gst_object_ref(q.object) }
            return (s.queues, s.sourceQueues)
        }
        defer { for q in queues + sources { gst_object_unref(q.object) } }
        return BufferLevel.seconds(in: queues.map(\.pointer), downloaded: sources.map(\.pointer), bitsPerSecond: selector.appliedBitrate)
    }
}
