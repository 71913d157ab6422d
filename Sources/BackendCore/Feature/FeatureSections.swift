/// A value a feature adds to a core record (``PlayerSnapshot``, ``PlayerStatistics``,
/// ``MediaInfo``): its own section, found by its type. `key` names it in the record's JSON
/// (`"features": {"adaptive": {…}}`).
public protocol FeatureSection: Sendable, Hashable, Encodable {
    /// The section's name in JSON (unique among the sections of one record).
    static var key: String { get }
}

/// The feature sections of one core record, keyed by type. The core never names a section's
/// type; features read and write their own (`sections[QueueSnapshot.self]`). Value semantics,
/// `Sendable` and `Hashable`, so records stay plain values. Encoded as one object with a member
/// per section; decoding keeps no section (their types belong to the features).
public struct FeatureSections: Sendable, Hashable, Codable {
    private var values: [ObjectIdentifier: AnySection] = [:]

    /// No sections.
    public init() {}

    /// The section of type `type`, nil when its feature has not written it.
    public subscript<Section: FeatureSection>(_ type: Section.Type) -> Section? {
        get { values[ObjectIdentifier(type)]?.value as? Section }
        set { values[ObjectIdentifier(type)] = newValue.map(AnySection.init) }
    }

    /// Whether no feature wrote a section.
    public var isEmpty: Bool { values.isEmpty }

    /// Decodes no sections (see the type).
    public init(from decoder: any Decoder) throws {}

    /// Encodes every section under its ``FeatureSection/key``, sorted by key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SectionKey.self)
        for section in values.values.sorted(by: { $0.key < $1.key }) {
            try section.encode(into: &container)
        }
    }

    /// A section with its type erased, still hashable and encodable.
    private struct AnySection: Sendable, Hashable {
        let value: any FeatureSection
        let key: String
        /// (Immutable and wrapping a `Sendable` value, so safe to share.)
    nonisolated(unsafe) private let hashable: AnyHashable

        init(_ value: some FeatureSection) {
            self.value = value
            self.key = type(of: value).key
            self.hashable = AnyHashable(value)
        }

        static func == (lhs: AnySection, rhs: AnySection) -> Bool { lhs.hashable == rhs.hashable }
        func hash(into hasher: inout Hasher) { hasher.combine(hashable) }

        func encode(into container: inout KeyedEncodingContainer<SectionKey>) throws {
            try container.encode(value, forKey: SectionKey(stringValue: key))
        }
    }

    /// A coding key made from a section's name.
    struct SectionKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
