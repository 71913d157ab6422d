import BackendCore
import CGStreamer

/// Reads what `playbin` knows about its streams and tags (through the named operations of
/// `FeatureContext.pipeline`), using GStreamer's own facilities only: the stream pads
/// (`get-audio-pad`…) and their sticky `STREAM_START` event's `GstStream` (caps before decoding,
/// flags), the stream tags (`get-audio-tags`…), pbutils' codec descriptions and the tag
/// library's language names.
///
/// **Thread:** loop thread (playbin's action signals are thread-safe; ``TracksFeature`` calls from there).
enum StreamInspector {
    /// Every stream playbin has now, per kind in index order. A subtitle stream is external
    /// (playbin `suburi`) when its stream-id does not start with the upstream id the video and
    /// audio streams share (demuxers name streams `<upstream-id>/<n>`; `subparse` behind `suburi`
    /// gets the id of its own URI). playbin's text numbering puts it wherever its pad came first.
    static func tracks(of pipeline: FeaturePipeline) -> [MediaTrack] {
        var result: [(track: MediaTrack, upstreamID: String?)] = []
        for kind in TrackKind.allCases {
            let count = pipeline.streamCount(kind.streamKind)
            for index in 0..<max(0, count) { result.append(track(kind, index, of: pipeline)) }
        }
        let mainID = result.first { $0.track.kind != .subtitle && $0.upstreamID != nil }?.upstreamID
        return result.map { entry in
            var track = entry.track
            if track.kind == .subtitle, let mainID, let id = entry.upstreamID, id != mainID { track.isExternal = true }
            return track
        }
    }

    /// What playbin plays now (`current-video`/`current-audio`/`current-text`, -1 = none);
    /// subtitles count as off when the `text` flag is cleared.
    static func selection(of pipeline: FeaturePipeline, subtitlesOn: Bool) -> TrackSelection {
        func current(_ kind: TrackKind) -> Int? {
            let count = pipeline.streamCount(kind.streamKind)
            let value = pipeline.currentStream(kind.streamKind)
            return value >= 0 && value < count ? value : nil
        }
        return TrackSelection(video: current(.video), audio: current(.audio), subtitle: subtitlesOn ? current(.subtitle) : nil)
    }

    private static func track(_ kind: TrackKind, _ index: Int, of pipeline: FeaturePipeline) -> (track: MediaTrack, upstreamID: String?) {
        var track = MediaTrack(index: index, kind: kind)
        var upstreamID: String?
        var tagCodec: String?
        if let tags = pipeline.streamTags(kind.streamKind, index: index) {
            defer { gst_tag_list_unref(tags) }
            track.title = string(tags, GST_TAG_TITLE)
            track.languageCode = string(tags, GST_TAG_LANGUAGE_CODE)
            tagCodec = string(tags, kind == .video ? GST_TAG_VIDEO_CODEC : kind == .audio ? GST_TAG_AUDIO_CODEC : GST_TAG_SUBTITLE_CODEC)
                ?? string(tags, GST_TAG_CODEC)
            if kind == .audio { track.audio = AudioTrackDetails(channels: 0, sampleRate: 0, bitrate: bitrate(tags)) }
        }
        if let code = track.languageCode, let name = gst_tag_get_language_name(code) { track.languageName = String(cString: name) }
        guard let pad = pipeline.streamPad(kind.streamKind, index: index) else {
            track.codec = tagCodec
            return (track, nil)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        var streamCodec: String?
        if let event = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0) {
            defer { gst_event_unref(event) }
            var flags = GST_STREAM_FLAG_NONE
            gst_event_parse_stream_flags(event, &flags)
            var id: UnsafePointer<gchar>?
            gst_event_parse_stream_start(event, &id)
            if let id { upstreamID = String(cString: id).split(separator: "/", maxSplits: 1).first.map(String.init) }
            track.isDefault = flags.rawValue & GST_STREAM_FLAG_SELECT.rawValue != 0
            var stream: UnsafeMutablePointer<GstStream>?
            gst_event_parse_stream(event, &stream)
            if let stream {
                defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
                if let caps = gst_stream_get_caps(stream) {
                    defer { gst_caps_unref(caps) }
                    streamCodec = String(takingGLibString: gst_pb_utils_get_codec_description(caps))
                }
            }
        }
        track.codec = streamCodec ?? tagCodec
        if let caps = gst_pad_get_current_caps(pad) {
            defer { gst_caps_unref(caps) }
            if track.codec == nil { track.codec = String(takingGLibString: gst_pb_utils_get_codec_description(caps)) }
            if let structure = gst_caps_get_structure(caps, 0) { fill(&track, from: structure) }
        }
        return (track, upstreamID)
    }

    /// Video size/rate/PAR or audio channels/rate from decoded caps (plain structure fields).
    private static func fill(_ track: inout MediaTrack, from structure: UnsafeMutablePointer<GstStructure>) {
        var a: gint = 0, b: gint = 0
        switch track.kind {
        case .video:
            var width: gint = 0, height: gint = 0
            guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0 else { return }
            var details = VideoTrackDetails(width: Int(width), height: Int(height), frameRateNumerator: 0, frameRateDenominator: 1,
                                            pixelAspectNumerator: 1, pixelAspectDenominator: 1)
            if gst_structure_get_fraction(structure, "framerate", &a, &b) != 0 { details.frameRateNumerator = Int(a); details.frameRateDenominator = Int(b) }
            if gst_structure_get_fraction(structure, "pixel-aspect-ratio", &a, &b) != 0 { details.pixelAspectNumerator = Int(a); details.pixelAspectDenominator = Int(b) }
            track.video = details
        case .audio:
            guard gst_structure_get_int(structure, "channels", &a) != 0, gst_structure_get_int(structure, "rate", &b) != 0 else { return }
            track.audio = AudioTrackDetails(channels: Int(a), sampleRate: Int(b), bitrate: track.audio?.bitrate)
        case .subtitle:
            return
        }
    }

    private static func string(_ tags: UnsafeMutablePointer<GstTagList>, _ tag: String) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, tag, &value) != 0 else { return nil }
        return String(takingGLibString: value)
    }

    private static func bitrate(_ tags: UnsafeMutablePointer<GstTagList>) -> Int? {
        var value: guint = 0
        if gst_tag_list_get_uint(tags, GST_TAG_BITRATE, &value) != 0, value > 0 { return Int(value) }
        if gst_tag_list_get_uint(tags, GST_TAG_NOMINAL_BITRATE, &value) != 0, value > 0 { return Int(value) }
        return nil
    }
}

extension TrackKind {
    /// The core's name for streams of this kind (``FeaturePipeline/streamCount(_:)``).
    var streamKind: PipelineStreamKind {
        switch self {
        case .video: .video
        case .audio: .audio
        case .subtitle: .text
        }
    }
}
