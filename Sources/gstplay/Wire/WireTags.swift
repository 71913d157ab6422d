import Backend

/// The wire form of the media's tags: the `tags` object of `media-info` and the
/// `tags` event, `{"event":"tags","load_id":2,"title":"…","artist":"…",…,"cover":{…}}`.
/// Pure; any thread.
enum WireTags {
    /// The picture's description (never its bytes): `{"mime_type":"image/png","image_type":"front-cover","bytes":3032}`.
    struct Cover: Encodable, Sendable, Equatable {
        var mimeType: String
        @Nullable var imageType: String?
        var bytes: Int
        init(_ art: CoverArt) { mimeType = art.mimeType; imageType = art.imageType; bytes = art.bytes.count }
    }

    /// The tags, every key present (null when untagged).
    struct Tags: Encodable, Sendable, Equatable {
        @Nullable var title: String?
        @Nullable var artist: String?
        @Nullable var album: String?
        @Nullable var comment: String?
        @Nullable var language: String?
        @Nullable var container: String?
        @Nullable var trackNumber: Int?
        @Nullable var trackCount: Int?
        @Nullable var date: String?
        @Nullable var genre: String?
        @Nullable var cover: Cover?
        init(_ tags: MediaTags, cover art: CoverArt?) {
            title = tags.title; artist = tags.artist; album = tags.album
            comment = tags.comment; language = tags.language; container = tags.container
            trackNumber = tags.trackNumber; trackCount = tags.trackCount; date = tags.date; genre = tags.genre
            cover = art.map(Cover.init)
        }
    }

    /// The `tags` event line, with the load's `load_id`.
    static func line(for event: TagsEvent, loadID: LoadID?) -> String {
        switch event {
        case .tagsChanged(let tags, let art):
            return Wire.line(WireEvent(event: "tags", payload: Tags(tags, cover: art), loadID: loadID))
        }
    }
}
