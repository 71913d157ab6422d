import CGStreamer

/// The named extension points a feature registers at (from ``PlayerFeature/attach(to:)``): the
/// only ways a feature changes what the core does, each with one owner or an explicit
/// ``ExtensionOrder`` (docs/ARCHITECTURE.md lists the owners and ranks). **Thread:** loop thread.
public extension FeatureContext {
    /// Adds `resolver` to the URI resolution before every load (``URIResolver``), at `order`
    /// among the others.
    func provideURIResolver(_ resolver: any URIResolver, order: ExtensionOrder) {
        extensions.add(resolver: resolver, order: order)
    }

    /// Makes `policy` decide what follows the end or the failure of every item (``EndOfItemPolicy``).
    /// One owner per player: a second policy is a programming error (a precondition failure).
    func provideEndOfItemPolicy(_ policy: any EndOfItemPolicy) {
        extensions.set(endOfItemPolicy: policy)
    }

    /// Adds `interceptor` to the bus message interception (``MessageInterceptor``), at `order`
    /// among the others.
    func interceptMessages(_ interceptor: any MessageInterceptor, order: ExtensionOrder) {
        extensions.add(interceptor: interceptor, order: order)
    }
}
