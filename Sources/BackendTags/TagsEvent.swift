import BackendCore

/// What the tags feature tells the frontend (`PlayerEvent.feature(_:)`; read it with
/// `event.tagsEvent`). Published on the loop thread.
public enum TagsEvent: FeatureEventPayload {
    /// The media's tags or picture changed: at preroll, and whenever a later tag message (a
    /// radio stream's new title, say) changes them. Never for a load without any.
    case tagsChanged(MediaTags, coverArt: CoverArt?)
}

public extension PlayerEvent {
    /// The tags feature's payload of this event, nil for every other event.
    var tagsEvent: TagsEvent? { payload(as: TagsEvent.self) }
}

/// The tags feature's section of the player's snapshot and of `MediaInfo.features` (key
/// `"tags"`): the media's tags and picture. Written on the loop thread
/// (`FeatureContext.updateSnapshot(_:)`), read from any thread.
public struct TagsSection: FeatureSection {
    /// `"tags"`.
    public static let key = "tags"
    /// The tags (empty before any arrived).
    public var tags = MediaTags()
    /// The picture, nil when the media has none (yet).
    public var coverArt: CoverArt?

    /// Creates the value.
    public init(tags: MediaTags = MediaTags(), coverArt: CoverArt? = nil) {
        self.tags = tags
        self.coverArt = coverArt
    }
}

public extension MediaInfo {
    /// The media's tags at preroll (``TagsSection``); empty when the player has no tags feature.
    var tags: MediaTags {
        get { features[TagsSection.self]?.tags ?? MediaTags() }
        set { var section = features[TagsSection.self] ?? TagsSection(); section.tags = newValue; features[TagsSection.self] = section }
    }

    /// The media's picture at preroll (``TagsSection``), nil when it has none.
    var coverArt: CoverArt? {
        get { features[TagsSection.self]?.coverArt }
        set { var section = features[TagsSection.self] ?? TagsSection(); section.coverArt = newValue; features[TagsSection.self] = section }
    }
}

public extension Player {
    /// The loaded media's tags as last published (``TagsEvent/tagsChanged(_:coverArt:)``), from
    /// the snapshot: any thread, never waits. Empty before any arrived.
    var mediaTags: MediaTags { snapshot.features[TagsSection.self]?.tags ?? MediaTags() }

    /// The loaded media's picture (encoded bytes and MIME type), from the snapshot: any thread.
    var coverArt: CoverArt? { snapshot.features[TagsSection.self]?.coverArt }
}
