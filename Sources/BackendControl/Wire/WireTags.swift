import Backend

/// The wire form of the media's tags: the `tags` object of `media-info` and the
/// `tags` event, `{"event":"tags","load_id":2,"title":"…","artist":"…",…,"cover":{…}}`.
/// Pure; any thread.
public enum WireTags {
    /// The picture's description (never its bytes): `{"mime_type":"image/png","image_type":"front-cover","bytes":3032}`.
    public struct Cover: Encodable, Sendable, Equatable {
        package var mimeType: String
        @Nullable package var imageType: String?
        package var bytes: Int
        package init(_ art: CoverArt) { mimeType = art.mimeType; imageType = art.imageType; bytes = art.bytes.count }
    }

    /// The tags, every key present (null when untagged).
    public struct Tags: Encodable, Sendable, Equatable {
        @Nullable package var title: String?
        @Nullable package var artist: String?
        @Nullable package var album: String?
        @Nullable package var comment: String?
        @Nullable package var language: String?
        @Nullable package var container: String?
        @Nullable package var trackNumber: Int?
        @Nullable package var trackCount: Int?
        @Nullable package var date: String?
        @Nullable package var genre: String?
        @Nullable package var cover: Cover?
        package init(_ tags: MediaTags, cover art: CoverArt?) {
            title = tags.title; artist = tags.artist; album = tags.album
            comment = tags.comment; language = tags.language; container = tags.container
            trackNumber = tags.trackNumber; trackCount = tags.trackCount; date = tags.date; genre = tags.genre
            cover = art.map(Cover.init)
        }
    }

    /// The `tags` event line, with the load's `load_id`.
    public static func line(for event: TagsEvent, loadID: LoadID?) -> String {
        switch event {
        case .tagsChanged(let tags, let art):
            return Wire.line(WireEvent(event: "tags", payload: Tags(tags, cover: art), loadID: loadID))
        }
    }
}
