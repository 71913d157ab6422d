import CGStreamer

/// Where an extension sits among the others registered at the same extension point: the lower
/// rank runs first. Each feature target names its own ranks (an `ExtensionOrder` extension) and
/// docs/ARCHITECTURE.md lists them, so the order is written down once and does not depend on the
/// order the features were given to ``Player``. Equal ranks keep the order they were registered in.
public struct ExtensionOrder: Sendable, Hashable, Comparable {
    /// The rank: lower runs first.
    public let rank: Int

    /// An order of rank `rank`.
    public init(_ rank: Int) { self.rank = rank }

    /// Lower ranks first.
    public static func < (lhs: ExtensionOrder, rhs: ExtensionOrder) -> Bool { lhs.rank < rhs.rank }
}

/// The URI resolution extension point (``FeatureContext/provideURIResolver(_:order:)``): before a
/// URI is given to `playbin`, each resolver in order may replace it (a cached copy), hold the load
/// back (``LoadDecision/wait``: it loads again itself later) or refuse it. Each sees the URI the
/// one before chose. **Thread:** loop thread.
public protocol URIResolver: AnyObject {
    /// The resolver's answer for `uri` (``FeatureMedia/loadingStart`` is the load's start).
    func resolve(_ uri: String) -> LoadDecision
}

/// The end-of-item extension point (``FeatureContext/provideEndOfItemPolicy(_:)``): what follows
/// the end of the current media or its fatal error — the next queue item, a retry — instead of
/// the core's report. One owner per player. **Thread:** loop thread.
public protocol EndOfItemPolicy: AnyObject {
    /// End of stream of the current media: ``EndDisposition/proceed`` lets the core report it;
    /// any other answer means the policy acted on it.
    func endOfStream() -> EndDisposition
    /// A fatal error of the current media: ``EndDisposition/proceed`` lets the core fail the
    /// player with it; any other answer means the policy acted on it.
    func failed(with error: PlayerError) -> EndDisposition
}

/// The bus message extension point (``FeatureContext/interceptMessages(_:order:)``), for a feature
/// that must keep a message from the core (its own application messages, navigation input, an
/// error it recovers from). Interceptors run in order before the core and before the features'
/// ``PlayerFeature/observe(message:)``; a feature that only reads messages observes them instead.
/// **Thread:** loop thread.
public protocol MessageInterceptor: AnyObject {
    /// A bus message of the current media; ``MessageDisposition/consumed`` keeps it from every
    /// interceptor after this one, from the features' observation and from the core. `message`
    /// is borrowed: ref it to keep it.
    func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition
}

/// What a resolver wants done with a URI about to be loaded (``URIResolver/resolve(_:)``).
public enum LoadDecision: Sendable, Hashable {
    /// Go on with this URI (the same, or a replacement such as a cached file's `file://` URI).
    case play(String)
    /// Do nothing now: the resolver loads again itself (``FeatureTransport/load(_:start:)``) later.
    case wait
    /// Fail the load with this error.
    case refuse(PlayerError)
}

/// Whether the interceptors after this one, the features and the core still see a bus message.
public enum MessageDisposition: Sendable, Hashable {
    /// Not this interceptor's, or only observed: pass it on.
    case proceed
    /// Handled here: nobody after this interceptor sees it.
    case consumed
}

/// The end-of-item policy's answer to the end of the media or to its failure.
public enum EndDisposition: Sendable, Hashable {
    /// Not the policy's business: the core decides.
    case proceed
    /// The policy moved on to other media (the next queue item, for instance).
    case advance
    /// The policy is trying the same media again (a reload after a network failure).
    case retry
    /// The policy stopped playback; the core reports nothing further.
    case stop
}

/// The extensions features registered (engine-owned, loop thread), each list in its order.
struct FeatureExtensions {
    /// One registration: what, its order, and when it came (ties keep registration order).
    struct Entry<Value> {
        let value: Value
        let order: ExtensionOrder
        let sequence: Int
    }

    private(set) var resolvers: [any URIResolver] = []
    private(set) var interceptors: [any MessageInterceptor] = []
    private(set) var endOfItemPolicy: (any EndOfItemPolicy)?
    /// Video filters and overlays for playbin's `video-filter` chain (taken once, after attach).
    private(set) var videoFilters: [UnsafeMutablePointer<GstElement>] = []
    private(set) var videoOverlays: [UnsafeMutablePointer<GstElement>] = []
    private var filterEntries: [Entry<UnsafeMutablePointer<GstElement>>] = []
    private var overlayEntries: [Entry<UnsafeMutablePointer<GstElement>>] = []
    private var resolverEntries: [Entry<any URIResolver>] = []
    private var interceptorEntries: [Entry<any MessageInterceptor>] = []
    private var sequence = 0

    mutating func add(resolver: any URIResolver, order: ExtensionOrder) {
        resolvers = Self.insert(resolver, order: order, into: &resolverEntries, sequence: &sequence)
    }

    mutating func add(interceptor: any MessageInterceptor, order: ExtensionOrder) {
        interceptors = Self.insert(interceptor, order: order, into: &interceptorEntries, sequence: &sequence)
    }

    mutating func add(videoFilter element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        videoFilters = Self.insert(element, order: order, into: &filterEntries, sequence: &sequence)
    }

    mutating func add(videoOverlay element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        videoOverlays = Self.insert(element, order: order, into: &overlayEntries, sequence: &sequence)
    }

    /// The video filters and overlays, in their orders, handed over once (the engine chains them).
    mutating func takeVideoChain() -> (filters: [UnsafeMutablePointer<GstElement>], overlays: [UnsafeMutablePointer<GstElement>]) {
        defer { videoFilters = []; videoOverlays = []; filterEntries = []; overlayEntries = [] }
        return (videoFilters, videoOverlays)
    }

    /// Drops every registration (teardown).
    mutating func removeAll() { self = FeatureExtensions() }

    /// Sets the one end-of-item policy; a second owner is a programming error.
    mutating func set(endOfItemPolicy policy: any EndOfItemPolicy) {
        precondition(endOfItemPolicy == nil, "a player has one end-of-item policy")
        endOfItemPolicy = policy
    }

    /// Adds `value` to `entries`, sorted by order then registration; the values in that order.
    static func insert<Value>(_ value: Value, order: ExtensionOrder, into entries: inout [Entry<Value>],
                              sequence: inout Int) -> [Value] {
        sequence += 1
        entries.append(Entry(value: value, order: order, sequence: sequence))
        entries.sort { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
        return entries.map(\.value)
    }
}
