/// The tags of the loaded media: its global tags, and the tags of its only audio
/// stream when it has no other stream (an MP3's ID3 frames, an Ogg file's Vorbis comments).
/// A plain value; any thread.
public struct MediaTags: Sendable, Hashable, Codable {
    /// The `title` tag (`GST_TAG_TITLE`).
    public var title: String?
    /// The `artist` tag (`GST_TAG_ARTIST`).
    public var artist: String?
    /// The `album` tag (`GST_TAG_ALBUM`).
    public var album: String?
    /// The `track-number` tag (`GST_TAG_TRACK_NUMBER`).
    public var trackNumber: Int?
    /// The `track-count` tag (`GST_TAG_TRACK_COUNT`).
    public var trackCount: Int?
    /// The `datetime` (or `date`) tag as ISO 8601 text, as precise as the tag is: `2024`,
    /// `2023-02-03` (`gst_date_time_to_iso8601_string`).
    public var date: String?
    /// The `genre` tag (`GST_TAG_GENRE`).
    public var genre: String?
    /// The `comment` tag (`GST_TAG_COMMENT`).
    public var comment: String?
    /// The `language-code` tag.
    public var language: String?
    /// The `container-format` tag (e.g. "Matroska").
    public var container: String?

    /// Creates the value.
    public init(title: String? = nil, artist: String? = nil, album: String? = nil, trackNumber: Int? = nil, trackCount: Int? = nil,
                date: String? = nil, genre: String? = nil, comment: String? = nil, language: String? = nil, container: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.trackNumber = trackNumber
        self.trackCount = trackCount
        self.date = date
        self.genre = genre
        self.comment = comment
        self.language = language
        self.container = container
    }

    /// "Artist – Title" when both are known, else whichever is; nil when neither is.
    public var displayTitle: String? {
        switch (artist, title) {
        case let (artist?, title?): return "\(artist) – \(title)"
        case let (nil, title?): return title
        case let (artist?, nil): return artist
        case (nil, nil): return nil
        }
    }

    /// `self` with every field it lacks taken from `other` (global tags win over stream tags).
    public func filled(from other: MediaTags) -> MediaTags {
        MediaTags(title: title ?? other.title, artist: artist ?? other.artist, album: album ?? other.album,
                  trackNumber: trackNumber ?? other.trackNumber, trackCount: trackCount ?? other.trackCount,
                  date: date ?? other.date, genre: genre ?? other.genre, comment: comment ?? other.comment,
                  language: language ?? other.language, container: container ?? other.container)
    }
}
