import BackendCore

/// The kind of an elementary stream, as playbin counts them (`n-video`, `n-audio`, `n-text`).
public enum TrackKind: String, Sendable, Hashable, Codable, CaseIterable {
    case video, audio, subtitle
}

/// One selectable stream of the loaded media (AVPlayer's "media selection option").
///
/// Built on the loop thread from playbin's stream pads (`get-video-pad`…), the `GstStream`
/// carried by their sticky `STREAM_START` event and the stream's tags (`get-audio-tags`…).
public struct MediaTrack: Sendable, Hashable, Codable {
    /// The index within its kind: what `Player.selectAudioTrack(_:)` and friends take
    /// (playbin's `current-audio`/`current-video`/`current-text` numbering).
    public var index: Int
    /// Video, audio or subtitle.
    public var kind: TrackKind
    /// A human name of the codec (`gst_pb_utils_get_codec_description` on the stream's caps,
    /// else the demuxer's codec tag), e.g. "VP8 video", "Vorbis".
    public var codec: String?
    /// The language code as the container gives it (`language-code` tag, ISO 639-1 or -2), e.g. "en".
    public var languageCode: String?
    /// A readable language name (`gst_tag_get_language_name`), e.g. "English".
    public var languageName: String?
    /// The stream's title (`title` tag), e.g. a Matroska track name.
    public var title: String?
    /// The container marks the stream as a default choice (`GST_STREAM_FLAG_SELECT`).
    public var isDefault: Bool
    /// Always nil in GStreamer 1.22: no demuxer reports a "forced" flag (there is no such
    /// `GstStreamFlags` bit). Kept so frontends can show it once GStreamer provides it.
    public var isForced: Bool?
    /// The subtitle comes from a file added with `Player.addSubtitleFile(_:)` (playbin `suburi`).
    public var isExternal: Bool
    /// Video details (decoded caps), nil for other kinds or when not known yet.
    public var video: VideoTrackDetails?
    /// Audio details (decoded caps and bitrate tags), nil for other kinds or when not known yet.
    public var audio: AudioTrackDetails?

    /// Creates the value.
    public init(index: Int, kind: TrackKind, codec: String? = nil, languageCode: String? = nil, languageName: String? = nil,
                title: String? = nil, isDefault: Bool = false, isForced: Bool? = nil, isExternal: Bool = false,
                video: VideoTrackDetails? = nil, audio: AudioTrackDetails? = nil) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.languageCode = languageCode
        self.languageName = languageName
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.isExternal = isExternal
        self.video = video
        self.audio = audio
    }
}

/// Video stream details from its decoded caps.
public struct VideoTrackDetails: Sendable, Hashable, Codable {
    /// Coded width in pixels (`width` caps field).
    public var width: Int
    /// Coded height in pixels (`height` caps field).
    public var height: Int
    /// Frame rate numerator (`framerate` caps field; 0 when variable or unknown).
    public var frameRateNumerator: Int
    /// Frame rate denominator.
    public var frameRateDenominator: Int
    /// Pixel aspect ratio numerator (`pixel-aspect-ratio` caps field).
    public var pixelAspectNumerator: Int
    /// Pixel aspect ratio denominator.
    public var pixelAspectDenominator: Int

    /// Creates the value.
    public init(width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int,
                pixelAspectNumerator: Int, pixelAspectDenominator: Int) {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.pixelAspectNumerator = pixelAspectNumerator
        self.pixelAspectDenominator = pixelAspectDenominator
    }

    /// Frames per second, nil when the rate is 0/x.
    public var framesPerSecond: Double? {
        frameRateNumerator > 0 && frameRateDenominator > 0 ? Double(frameRateNumerator) / Double(frameRateDenominator) : nil
    }
}

/// Audio stream details from its decoded caps and tags.
public struct AudioTrackDetails: Sendable, Hashable, Codable {
    /// Channel count of the decoded stream (`channels` caps field; 0 until known).
    public var channels: Int
    /// Sample rate of the decoded stream in Hz (`rate` caps field; 0 until known).
    public var sampleRate: Int
    /// Bits per second from the `bitrate` or `nominal-bitrate` tag, nil when not tagged.
    public var bitrate: Int?

    /// Creates the value.
    public init(channels: Int, sampleRate: Int, bitrate: Int?) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.bitrate = bitrate
    }
}

/// The tracks playing now: an index per kind, nil when that kind is off or absent.
public struct TrackSelection: Sendable, Hashable, Codable {
    /// playbin `current-video`.
    public var video: Int?
    /// playbin `current-audio`.
    public var audio: Int?
    /// playbin `current-text`; nil when subtitles are off or absent.
    public var subtitle: Int?

    /// Creates the value.
    public init(video: Int? = nil, audio: Int? = nil, subtitle: Int? = nil) {
        self.video = video
        self.audio = audio
        self.subtitle = subtitle
    }

    /// The index selected for `kind`.
    public subscript(kind: TrackKind) -> Int? {
        get {
            switch kind {
            case .video: return video
            case .audio: return audio
            case .subtitle: return subtitle
            }
        }
        set {
            switch kind {
            case .video: video = newValue
            case .audio: audio = newValue
            case .subtitle: subtitle = newValue
            }
        }
    }
}

/// A text subtitle cue as data (delivered by ``TracksEvent/subtitleCue(_:)`` when it is due).
public struct SubtitleCue: Sendable, Hashable, Codable {
    /// The cue's text (pango markup stripped), lines separated by "\n".
    public var text: String
    /// When it shows on the media timeline (buffer PTS as stream time), `Player.subtitleOffset` included.
    public var start: MediaTime
    /// When it hides (PTS + duration), nil when the buffer has no duration.
    public var end: MediaTime?

    /// Creates the value.
    public init(text: String, start: MediaTime, end: MediaTime?) {
        self.text = text
        self.start = start
        self.end = end
    }
}

/// How text subtitles reach the user (`TracksFeature/init(subtitleRendering:flushOnTrackSwitch:subtitleStyle:)`,
/// `StandardFeatures.subtitleRendering`).
public enum SubtitleRendering: String, Sendable, Hashable, Codable {
    /// Cues are delivered as ``TracksEvent/subtitleCue(_:)`` events (playbin `text-sink` is a
    /// clock-synchronised `fakesink`); nothing is drawn. For headless and embedding apps.
    case events
    /// playbin draws them (text and bitmap) into the video (its `subtitleoverlay` path, styled by
    /// ``SubtitleStyle``); text cues are still published as ``TracksEvent/subtitleCue(_:)``
    /// events, read by a pad probe on the overlay's subtitle pad (`SubtitleOverlayTap`).
    case overlay
    /// ``overlay`` when the video sink draws into a window (`FeatureContext.video.sinkDrawsIntoWindow`),
    /// else ``events`` (fake sinks, no video): the cheap path where nothing would be seen.
    case automatic
}
