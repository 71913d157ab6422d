import CGStreamer
import GLibSupport

/// The kinds of stream `playbin` plays (its `n-video`, `n-audio` and `n-text`).
public enum PipelineStreamKind: Sendable, Hashable {
    /// Video streams.
    case video
    /// Audio streams.
    case audio
    /// Subtitle (text) streams.
    case text
}

/// Named operations on `playbin` for features (``FeatureContext/pipeline``), so that a feature
/// asks for what it needs instead of reading and setting playbin's properties itself.
/// **Thread:** loop thread, unless a method says otherwise.
public extension FeaturePipeline {
    /// How many streams of `kind` the media has (playbin's `n-video`, `n-audio`, `n-text`); 0
    /// without playbin.
    func streamCount(_ kind: PipelineStreamKind) -> Int {
        guard let playbin else { return 0 }
        return Int(CGStreamer_get_int(UnsafeMutableRawPointer(playbin), kind.countProperty))
    }

    /// The tags of stream `index` of `kind` (playbin's `get-video-tags`, `get-audio-tags`,
    /// `get-text-tags`): a new list the caller unrefs (`gst_tag_list_unref`), nil when none.
    func streamTags(_ kind: PipelineStreamKind, index: Int) -> UnsafeMutablePointer<GstTagList>? {
        guard let playbin else { return nil }
        return CGStreamer_playbin_stream_tags(playbin, kind.tagsSignal, gint(index))
    }

    /// The stream of `kind` playing (playbin's `current-video`, `current-audio`, `current-text`),
    /// -1 when none; -1 without playbin.
    func currentStream(_ kind: PipelineStreamKind) -> Int {
        guard let playbin else { return -1 }
        return Int(CGStreamer_get_int(UnsafeMutableRawPointer(playbin), kind.currentProperty))
    }

    /// Makes stream `index` of `kind` the one playing (sets playbin's `current-…`; playbin's
    /// input-selector switches in place).
    func selectStream(_ kind: PipelineStreamKind, index: Int) {
        guard let playbin else { return }
        CGStreamer_set_int(UnsafeMutableRawPointer(playbin), kind.currentProperty, gint(index))
    }

    /// Shifts the subtitles by `offset` (playbin's `text-offset`; positive: later). False
    /// without playbin (nothing changed).
    @discardableResult
    func setTextOffset(_ offset: MediaTime) -> Bool {
        guard let playbin else { return false }
        CGStreamer_set_int64(UnsafeMutableRawPointer(playbin), "text-offset", gint64(offset.nanoseconds))
        return true
    }

    /// Shifts the audio against the video by `offset` (playbin's `av-offset`; positive: audio
    /// later). False without playbin (nothing changed).
    @discardableResult
    func setAudioVideoOffset(_ offset: MediaTime) -> Bool {
        guard let playbin else { return false }
        CGStreamer_set_int64(UnsafeMutableRawPointer(playbin), "av-offset", gint64(offset.nanoseconds))
        return true
    }

    /// Makes `element` what playbin shows for audio-only media (its `vis-plugin`; playbin keeps
    /// a reference). Takes effect once ``enableVisualization()`` set the `vis` flag.
    func setVisualizer(_ element: UnsafeMutablePointer<GstElement>) {
        guard let playbin else { return }
        CGStreamer_set_object(UnsafeMutableRawPointer(playbin), "vis-plugin", UnsafeMutableRawPointer(element))
    }

    /// Sets playbin's `vis` flag (`GST_PLAY_FLAG_VIS`), unless set: audio-only media shows the
    /// visualiser (``setVisualizer(_:)``). Before a load prerolls (``PlayerFeature/willPreroll(uri:)``).
    func enableVisualization() {
        guard let playbin else { return }
        let object = UnsafeMutableRawPointer(playbin)
        let visFlag: UInt32 = 0x8
        let flags = CGStreamer_get_uint(object, "flags")
        if flags & visFlag == 0 { CGStreamer_set_flags(object, "flags", flags | visFlag) }
    }

    /// The pad of stream `index` of `kind` (playbin's `get-video-pad`, `get-audio-pad`,
    /// `get-text-pad` action signals): a new reference the caller unrefs (`gst_object_unref`),
    /// nil when there is no such stream. Its sticky events and caps describe the stream.
    func streamPad(_ kind: PipelineStreamKind, index: Int) -> UnsafeMutablePointer<GstPad>? {
        guard let playbin else { return nil }
        return CGStreamer_playbin_stream_pad(playbin, kind.padSignal, gint(index))
    }

    /// Makes `uri` the external subtitle file of the next preroll (playbin's `suburi`,
    /// `g_object_set`); nil: none. From ``PlayerFeature/willPreroll(uri:)`` (playbin in READY).
    func setSubtitleURI(_ uri: String?) {
        guard let playbin else { return }
        CGStreamer_set_string(UnsafeMutableRawPointer(playbin), "suburi", uri)
    }

    /// Makes `element` the sink of the subtitle stream (playbin's `text-sink`, `g_object_set`;
    /// playbin keeps a reference): subtitles then reach it instead of being drawn on the video.
    /// From ``PlayerFeature/attach(to:)``.
    func setTextSink(_ element: UnsafeMutablePointer<GstElement>) {
        guard let playbin else { return }
        CGStreamer_set_object(UnsafeMutableRawPointer(playbin), "text-sink", UnsafeMutableRawPointer(element))
    }

    /// Calls `body` with every element in playbin made by the element factory `factory`, at any
    /// depth (`gst_bin_iterate_all_by_element_factory_name`); the elements are borrowed for the
    /// call. To restyle what playbin built itself (its `subtitleoverlay`, say).
    func forEachElement(madeBy factory: String, _ body: (UnsafeMutablePointer<GstElement>) -> Void) {
        guard let playbin,
              let iterator = gst_bin_iterate_all_by_element_factory_name(CGStreamer_as_bin(UnsafeMutableRawPointer(playbin)), factory) else { return }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let element = g_value_get_object(&value) { body(element.assumingMemoryBound(to: GstElement.self)) }
            g_value_reset(&value)
        }
        g_value_unset(&value)
    }

    /// The plugins of the sources, demuxers, parsers, decoders, depayloaders and decryptors in
    /// playbin now (the factories `gst_element_factory_list_is_type` calls sources or decodable),
    /// at any depth (`gst_bin_iterate_recurse`, `gst_plugin_feature_get_plugin_name`), each named
    /// once, in the bin's order (newest child first): what this media needed, less the sinks,
    /// which the player's configuration picks.
    func mediaPluginNames() -> [String] {
        guard let playbin, let iterator = gst_bin_iterate_recurse(CGStreamer_as_bin(UnsafeMutableRawPointer(playbin))) else { return [] }
        defer { gst_iterator_free(iterator) }
        let types = CGStreamer_FACTORY_TYPE_DECODABLE() | CGStreamer_FACTORY_TYPE_SRC()
        var value = GValue()
        defer { g_value_unset(&value) }
        var names: [String] = []
        while true {
            switch gst_iterator_next(iterator, &value) {
            case GST_ITERATOR_OK:
                if let element = g_value_get_object(&value), let factory = gst_element_get_factory(CGStreamer_as_element(element)),
                   gst_element_factory_list_is_type(factory, types) != 0,
                   let plugin = gst_plugin_feature_get_plugin_name(factory).map({ String(cString: $0) }), !names.contains(plugin) {
                    names.append(plugin)
                }
                g_value_reset(&value)
            case GST_ITERATOR_RESYNC:
                gst_iterator_resync(iterator)
                names.removeAll()
            default:
                return names
            }
        }
    }

    /// The sample the video sink shows now (playbin's `sample` property, the sink's
    /// `last-sample`): a new reference the caller unrefs (`gst_sample_unref`), nil when no frame
    /// was shown (or the sink keeps none).
    func currentSample() -> OpaquePointer? {
        guard let playbin, let sample = CGStreamer_get_object(UnsafeMutableRawPointer(playbin), "sample") else { return nil }
        return OpaquePointer(sample)
    }

    /// The frame the video sink shows now converted to `caps` (playbin's `convert-sample` action
    /// signal; blocks while GStreamer converts or encodes): a new sample the caller unrefs
    /// (`gst_sample_unref`), nil when there is no frame or the conversion failed.
    func currentSample(convertedTo caps: UnsafeMutablePointer<GstCaps>) -> OpaquePointer? {
        guard let playbin else { return nil }
        return CGStreamer_playbin_convert_sample(playbin, caps)
    }

    /// Gapless hand-over, as `gst-play-1.0 --gapless` does it: on every `about-to-finish` of
    /// playbin (the current stream's data is all queued) `nextURI` is asked, with the number of
    /// video streams playing, for the URI to play back to back; the core sets it as playbin's
    /// `uri` and posts an application message named `messageName` on the bus (for the feature's
    /// ``MessageInterceptor``); nil lets the stream end. The handler is disconnected at teardown.
    /// **Thread:** the call, loop thread; `nextURI`, a streaming thread (it must not touch the
    /// context).
    func handOverOnAboutToFinish(messageName: String, nextURI: @escaping @Sendable (_ videoStreams: Int) -> String?) {
        guard let playbin else { return }
        let instance = UnsafeMutableRawPointer(playbin)
        let id = GaplessHandOver(messageName: messageName, nextURI: nextURI).connect(to: instance)
        context.loop.track(handler: id, on: instance)
    }
}

/// What ``FeaturePipeline/handOverOnAboutToFinish(messageName:nextURI:)`` does on each
/// `about-to-finish` (a streaming thread). `package`: a test drives it on a playbin of its own.
package struct GaplessHandOver: Sendable {
    let messageName: String
    let nextURI: @Sendable (_ videoStreams: Int) -> String?

    /// A hand-over posting `messageName`, asking `nextURI`.
    package init(messageName: String, nextURI: @escaping @Sendable (_ videoStreams: Int) -> String?) {
        self.messageName = messageName
        self.nextURI = nextURI
    }

    /// Connects `about-to-finish` on `playbin` (`g_signal_connect_data`); returns the handler id
    /// (the caller disconnects it; the box goes with the closure's destroy-notify).
    package func connect(to playbin: UnsafeMutableRawPointer) -> gulong {
        CGStreamer_signal_connect_1(playbin, "about-to-finish", { instance, data in
            guard let instance, let data else { return }
            CallbackBox<GaplessHandOver>.from(data).value.aboutToFinish(playbin: instance)
        }, CallbackBox(self).retainedPointer, callbackBoxClosureRelease)
    }

    /// Asks for the next URI; sets `playbin.uri` (`g_object_set`) and posts the hand-over message
    /// (`gst_element_post_message`).
    func aboutToFinish(playbin: UnsafeMutableRawPointer) {
        guard let uri = nextURI(Int(CGStreamer_get_int(playbin, "n-video"))) else { return }
        CGStreamer_set_string(playbin, "uri", uri)
        let structure = gst_structure_new_empty(messageName)
        if let message = gst_message_new_application(CGStreamer_as_object(playbin), structure) {
            _ = gst_element_post_message(CGStreamer_as_element(playbin), message)
        }
    }
}

private extension PipelineStreamKind {
    var countProperty: String {
        switch self {
        case .video: "n-video"
        case .audio: "n-audio"
        case .text: "n-text"
        }
    }

    var currentProperty: String {
        switch self {
        case .video: "current-video"
        case .audio: "current-audio"
        case .text: "current-text"
        }
    }

    var tagsSignal: String {
        switch self {
        case .video: "get-video-tags"
        case .audio: "get-audio-tags"
        case .text: "get-text-tags"
        }
    }

    var padSignal: String {
        switch self {
        case .video: "get-video-pad"
        case .audio: "get-audio-pad"
        case .text: "get-text-pad"
        }
    }
}
