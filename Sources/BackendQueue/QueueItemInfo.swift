import BackendCore

/// What the queue's discoverer (``QueueFeature``, GstDiscoverer from pbutils) found about one
/// queue item before it plays: a compact summary, never the discoverer's whole result (no tag
/// list, no stream tree), so a long playlist holds a few hundred bytes per item at most
/// (``maximumTextLength`` caps each text). A plain value; any thread.
public struct QueueItemInfo: Sendable, Hashable, Codable {
    /// The longest text kept per tag (characters); longer tags are cut.
    public static let maximumTextLength = 200

    /// The media's duration (`gst_discoverer_info_get_duration`), nil when unknown or live.
    public var duration: MediaTime?
    /// The `title` tag (container first, then the streams').
    public var title: String?
    /// The `artist` tag.
    public var artist: String?
    /// The `album` tag.
    public var album: String?
    /// The media has a video stream (a still image counts).
    public var hasVideo: Bool
    /// The media has an audio stream.
    public var hasAudio: Bool
    /// Why the media cannot be played (the discoverer's error, timeout or missing plugins), nil
    /// when it can. The queue skips such an item when it comes to it.
    public var error: String?

    /// Creates the value; texts are cut to ``maximumTextLength``.
    public init(duration: MediaTime? = nil, title: String? = nil, artist: String? = nil, album: String? = nil,
                hasVideo: Bool = false, hasAudio: Bool = false, error: String? = nil) {
        self.duration = duration
        self.title = title.map(Self.cut)
        self.artist = artist.map(Self.cut)
        self.album = album.map(Self.cut)
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.error = error.map(Self.cut)
    }

    /// False when the discoverer found the media unplayable (``error`` is set).
    public var isPlayable: Bool { error == nil }

    private static func cut(_ text: String) -> String {
        text.count <= maximumTextLength ? text : String(text.prefix(maximumTextLength))
    }
}
