import BackendCore

/// What the tracks feature tells the frontend (`PlayerEvent.feature(_:)`; read it with
/// `event.payload(as: TracksEvent.self)` or `PlayerEvent.tracksEvent`). Published on the loop thread.
public enum TracksEvent: FeatureEventPayload {
    /// The streams or the selection changed: after preroll and whenever playbin reports new
    /// streams (`video-changed`/`audio-changed`/`text-changed`) or a track is selected.
    case tracksChanged([MediaTrack], selection: TrackSelection)
    /// A track of `kind` was selected (nil: subtitles off) by `Player.selectTrack(_:_:)` or
    /// by adding a subtitle file.
    case trackSelected(TrackKind, index: Int?)
    /// A text subtitle cue is due (from the text sink, or from the drawn subtitles' tap, held until due).
    case subtitleCue(SubtitleCue)
}

public extension PlayerEvent {
    /// The tracks feature's event `event` as a ``PlayerEvent`` (`PlayerEvent.feature(_:)`).
    static func tracks(_ event: TracksEvent) -> PlayerEvent { .feature(FeatureEvent(event)) }

    /// The tracks feature's payload of this event, nil for every other event.
    var tracksEvent: TracksEvent? { payload(as: TracksEvent.self) }
}

/// The tracks feature's section of `PlayerSnapshot.features`: what `Player.tracks`,
/// `Player.trackSelection`, `Player.subtitleOffset` and `Player.audioOffset` answer
/// (written on the loop thread with `FeatureContext.updateSnapshot(_:)`, read under the
/// snapshot's one lock from any thread).
public struct TracksSnapshot: FeatureSection {
    /// `"tracks"`.
    public static let key = "tracks"
    /// The streams of the loaded media, as last published (empty before preroll).
    public var tracks: [MediaTrack] = []
    /// The tracks playing now.
    public var selection = TrackSelection()
    /// Subtitle delay in milliseconds (playbin `text-offset`).
    public var subtitleOffset: Int64 = 0
    /// Audio/video offset in milliseconds (playbin `av-offset`).
    public var audioOffset: Int64 = 0
    /// How drawn subtitles look (``SubtitleStyle``; `Player.setSubtitleStyle(_:)`).
    public var subtitleStyle = SubtitleStyle()
    /// Subtitles are drawn on the picture (``SubtitleRendering/overlay``, or
    /// ``SubtitleRendering/automatic`` with a video window); false: cue events only.
    public var subtitlesDrawn = false
    /// The external subtitle file added with `Player.addSubtitleFile(_:)` for the media loaded
    /// (its URI; nil: none, or only one found by `SubtitleAutoLoad`). Set once it is loaded.
    public var subtitleFile: String?

    /// Nothing known, no offsets.
    public init() {}
}

/// The tracks feature's section of `MediaInfo.features` (preroll): every stream and the
/// selection. Also reachable as `MediaInfo.tracks` and `MediaInfo.selection` (the media's tags
/// are the tags feature's, `BackendTags`).
public struct TracksMediaInfo: FeatureSection {
    /// `"tracks"`.
    public static let key = "tracks"
    /// Every stream with codec, language, title and flags (``MediaTrack``).
    public var tracks: [MediaTrack] = []
    /// The tracks playing at preroll.
    public var selection = TrackSelection()

    /// Creates the value.
    public init(tracks: [MediaTrack] = [], selection: TrackSelection = TrackSelection()) {
        self.tracks = tracks
        self.selection = selection
    }
}

public extension MediaInfo {
    /// Every stream (``TracksMediaInfo/tracks``); empty when the player has no tracks feature.
    var tracks: [MediaTrack] {
        get { features[TracksMediaInfo.self]?.tracks ?? [] }
        set { tracksSection { $0.tracks = newValue } }
    }

    /// The tracks playing at preroll (``TracksMediaInfo/selection``).
    var selection: TrackSelection {
        get { features[TracksMediaInfo.self]?.selection ?? TrackSelection() }
        set { tracksSection { $0.selection = newValue } }
    }

    private mutating func tracksSection(_ change: (inout TracksMediaInfo) -> Void) {
        var section = features[TracksMediaInfo.self] ?? TracksMediaInfo()
        change(&section)
        features[TracksMediaInfo.self] = section
    }
}
