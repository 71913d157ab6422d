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

    /// Adds `element` to the chain of video filters in playbin's `video-filter`, at `order` among
    /// the filters: before the overlays, the subtitle overlay and the sink, so whatever it does is
    /// seen with every video sink. From ``PlayerFeature/attach(to:)`` only (the chain is built
    /// once every feature attached); a floating `element` goes to the chain, else the feature
    /// keeps its own reference (the chain takes one of its own). Ignored when video is disabled.
    func addVideoFilter(_ element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        extensions.add(videoFilter: element, order: order)
    }

    /// Adds `element` to the video filter chain after every filter (``addVideoFilter(_:order:)``),
    /// at `order` among the overlays: something drawn on the picture (an on-screen display) that
    /// snapshots can leave out (``sampleUnderOverlays(matching:)``). From
    /// ``PlayerFeature/attach(to:)`` only, as for the filters.
    func addVideoOverlay(_ element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        extensions.add(videoOverlay: element, order: order)
    }
}
