import BackendCore

extension PlayerProperty {
    /// `chapter`: the index of the chapter playing (0-based), none before the first one or
    /// without chapters.
    public static let chapter = PlayerProperty("chapter") { $0.features[ChaptersSnapshot.self]?.current.map(PropertyValue.integer) ?? .none }
    /// `chapters`: how many chapters the media has.
    public static let chapters = PlayerProperty("chapters") { .integer($0.features[ChaptersSnapshot.self]?.chapters.count ?? 0) }

    /// The chapters' properties.
    public static let chapterList: [PlayerProperty] = [chapter, chapters]
}
