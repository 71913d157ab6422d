import BackendCore
import CGStreamer
import GLibSupport

/// One `GstDiscoverer` (pbutils) run asynchronously on the player's loop thread, one URI at a
/// time: ``discover(_:)`` queues a URI (`gst_discoverer_discover_uri_async`), the discoverer's
/// `discovered` signal comes back on the loop thread (its bus watch and timeout are attached to
/// the thread-default context at `gst_discoverer_start`: the loop's own `GMainContext`), and the
/// result is handed on as a compact ``QueueItemInfo`` — the `GstDiscovererInfo` itself is never
/// kept. One URI at a time keeps it to one pipeline (one demuxer, no decoding past what
/// typefinding and the parsers need) next to playback.
///
/// **Thread:** loop thread only (created, used and closed there). **Lifetime:** the GObject is
/// made lazily, and ``close()`` (stop, disconnect the handler — whose box the closure's
/// destroy-notify releases — and unref) runs on cancel, when there is nothing left to discover,
/// and at teardown. The handler holds the owner weakly, so no cycle outlives `close()`.
final class MediaDiscoverer {
    /// Called with the URI and what was found (loop thread), after the discoverer is idle again.
    typealias Completion = (_ uri: String, _ info: QueueItemInfo) -> Void

    /// The per-URI limit (`gst_discoverer_new`'s timeout).
    let timeout: MediaTime
    private let completion: Completion
    private var discoverer: UnsafeMutablePointer<GstDiscoverer>?
    private var handler: gulong = 0
    private var setupHandler: gulong = 0
    /// The discoverer's own pipeline (a reference), from its first `source-setup`.
    private var pipeline: UnsafeMutablePointer<GstElement>?
    /// The URI being discovered, nil when idle.
    private(set) var inFlight: String?

    /// A discoverer that is not started yet; `completion` gets each result.
    init(timeout: MediaTime = MediaTime(seconds: 5), completion: @escaping Completion) {
        self.timeout = timeout
        self.completion = completion
    }

    /// Starts discovering `uri` (making and starting the `GstDiscoverer` first when needed).
    /// False when the discoverer is busy or could not take it. Loop thread.
    @discardableResult
    func discover(_ uri: String) -> Bool {
        guard inFlight == nil else { return false }
        if discoverer == nil { open() }
        guard let discoverer, gst_discoverer_discover_uri_async(discoverer, uri) != 0 else { return false }
        inFlight = uri
        return true
    }

    /// Whether a URI is being discovered.
    var isBusy: Bool { inFlight != nil }

    /// Its `GstDiscoverer` exists (made by ``discover(_:)``, released by ``close()``).
    var isOpen: Bool { discoverer != nil }

    /// Stops and releases the discoverer (`gst_discoverer_stop`, `g_signal_handler_disconnect`,
    /// `g_object_unref`); a later ``discover(_:)`` makes a new one. Loop thread.
    ///
    /// With a URI in flight, the discoverer's own pipeline is set to NULL first: in 1.22
    /// `gst_discoverer_stop` sets it to READY while holding the discoverer's lock, and the
    /// pad-removed handler that state change runs takes that same lock — a deadlock (seen here
    /// as a hung loop thread). The pipeline is known from the `source-setup` signal. The result
    /// in flight is then dropped (the discoverer keeps its half-made info until it is finalized).
    func close() {
        inFlight = nil
        guard let discoverer else { return }
        self.discoverer = nil
        if handler != 0 { g_signal_handler_disconnect(discoverer, handler) }
        if setupHandler != 0 { g_signal_handler_disconnect(discoverer, setupHandler) }
        handler = 0
        setupHandler = 0
        if let pipeline {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
            self.pipeline = nil
        }
        gst_discoverer_stop(discoverer)
        g_object_unref(discoverer)
    }

    deinit { close() }

    // MARK: Internals

    /// A weak way back from the C handler to the discoverer's owner.
    private final class Target {
        weak var owner: MediaDiscoverer?
        init(_ owner: MediaDiscoverer) { self.owner = owner }
    }

    private func open() {
        var error: UnsafeMutablePointer<GError>?
        let nanoseconds = GstClockTime(max(timeout.nanoseconds, 1_000_000_000))
        guard let made = gst_discoverer_new(nanoseconds, &error) else {
            if let error { g_error_free(error) }
            return
        }
        let box = CallbackBox<Target>(Target(self))
        handler = CGStreamer_signal_connect_3(made, "discovered", { _, info, error, data in
            guard let data, let info else { return }
            let gerror = error?.assumingMemoryBound(to: GError.self)
            CallbackBox<Target>.from(data).value.owner?.discovered(OpaquePointer(info), error: gerror)
        }, box.retainedPointer, callbackBoxClosureRelease)
        // Emitted on the thread that starts the discovery (this one), from the discoverer's own
        // state change: the source's top-level parent is the discoverer's pipeline.
        let setupBox = CallbackBox<Target>(Target(self))
        setupHandler = CGStreamer_signal_connect_2(made, "source-setup", { _, source, data in
            guard let data, let source else { return }
            CallbackBox<Target>.from(data).value.owner?.sourceSetUp(source)
        }, setupBox.retainedPointer, callbackBoxClosureRelease)
        gst_discoverer_start(made)
        discoverer = made
    }

    /// `source-setup`: keeps the discoverer's pipeline (the source's top-level parent) once.
    private func sourceSetUp(_ source: UnsafeMutableRawPointer) {
        guard pipeline == nil else { return }
        var top = gst_object_ref(source).assumingMemoryBound(to: GstObject.self)
        while let parent = gst_object_get_parent(top) {
            gst_object_unref(top)
            top = parent
        }
        pipeline = UnsafeMutableRawPointer(top).assumingMemoryBound(to: GstElement.self)
    }

    /// The `discovered` signal (loop thread): summarise, go idle, hand the result on. The
    /// completion may call ``discover(_:)`` only later (queued): the discoverer is still inside
    /// its own emission here.
    private func discovered(_ info: OpaquePointer, error: UnsafeMutablePointer<GError>?) {
        guard let uri = inFlight else { return }
        inFlight = nil
        completion(uri, Self.summary(of: info, error: error))
    }

    /// The compact summary of a `GstDiscovererInfo` (borrowed): duration, title/artist/album
    /// (container tags, then each stream's), video (still images not counted) and audio, and an
    /// error when the media cannot be played (an invalid URI or a discoverer error; a timeout or
    /// missing plugins are not errors here: playback reports those).
    static func summary(of info: OpaquePointer, error: UnsafeMutablePointer<GError>?) -> QueueItemInfo {
        let result = gst_discoverer_info_get_result(info)
        if result == GST_DISCOVERER_URI_INVALID || result == GST_DISCOVERER_ERROR {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "the media cannot be read"
            return QueueItemInfo(error: message)
        }
        var summary = QueueItemInfo()
        let duration = gst_discoverer_info_get_duration(info)
        if duration != CGStreamer_CLOCK_TIME_NONE(), duration > 0, result == GST_DISCOVERER_OK || result == GST_DISCOVERER_MISSING_PLUGINS {
            summary.duration = MediaTime(nanoseconds: Int64(clamping: duration))
        }
        if let videos = gst_discoverer_info_get_video_streams(info) {
            var node: UnsafeMutablePointer<GList>? = videos
            while let current = node {
                if let video = current.pointee.data, gst_discoverer_video_info_is_image(OpaquePointer(video)) == 0 { summary.hasVideo = true }
                node = current.pointee.next
            }
            gst_discoverer_stream_info_list_free(videos)
        }
        if let audios = gst_discoverer_info_get_audio_streams(info) {
            summary.hasAudio = true
            gst_discoverer_stream_info_list_free(audios)
        }
        readTags(of: info, into: &summary)
        return QueueItemInfo(duration: summary.duration, title: summary.title, artist: summary.artist, album: summary.album,
                             hasVideo: summary.hasVideo, hasAudio: summary.hasAudio)
    }

    /// Title, artist and album: the container's global tags (`gst_discoverer_container_info_get_tags`
    /// on the top-level stream), then — only when the media has a single stream, like an Ogg or
    /// MP3 song — that stream's tags (`gst_discoverer_stream_info_get_tags`): a stream's title in a
    /// file with several is the track's name, not the media's.
    private static func readTags(of info: OpaquePointer, into summary: inout QueueItemInfo) {
        func take(_ tags: UnsafePointer<GstTagList>?) {
            guard let tags else { return }
            let list = UnsafeMutablePointer(mutating: tags)
            if summary.title == nil { summary.title = string(list, GST_TAG_TITLE) }
            if summary.artist == nil { summary.artist = string(list, GST_TAG_ARTIST) }
            if summary.album == nil { summary.album = string(list, GST_TAG_ALBUM) }
        }
        if let top = gst_discoverer_info_get_stream_info(info) {
            let instance = UnsafeMutableRawPointer(top).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gst_discoverer_container_info_get_type()) != 0 {
                take(gst_discoverer_container_info_get_tags(top))
            }
            g_object_unref(UnsafeMutableRawPointer(top))
        }
        guard let streams = gst_discoverer_info_get_stream_list(info) else { return }
        defer { gst_discoverer_stream_info_list_free(streams) }
        if streams.pointee.next == nil, let only = streams.pointee.data { take(gst_discoverer_stream_info_get_tags(OpaquePointer(only))) }
    }

    static func string(_ tags: UnsafeMutablePointer<GstTagList>, _ tag: String) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, tag, &value) != 0 else { return nil }
        return String(takingGLibString: value)
    }
}
