import BackendCore
import CGStreamer
import GLibSupport

/// The media cache in the player (seed 001), a `PlayerFeature`: a hit plays the
/// cached file; a miss plays over http with download buffering into the cache's `partial/`
/// directory (`FeatureContext.download.keep(in:)`) and is stored only when every byte arrived,
/// contiguously, and agrees with the Content-Length. A hit due for revalidation waits for one
/// conditional request first (`LoadDecision.wait`), then loads again. It resolves URIs and
/// intercepts bus messages at `ExtensionOrder/mediaCache`.
///
/// Completion is judged from three facts, since none is reliable alone in 1.22: the
/// downloadbuffer's `GST_QUERY_BUFFERING` ranges (one range 0…length: no gap left by a seek),
/// the partial file's size against the Content-Length, and the `GstCacheDownloadComplete`
/// message (which can be missing when the download ends before the demuxer reads).
///
/// Its verdicts are ``CacheEvent/status(_:)`` events and the `cache` section of the statistics
/// (`PlayerStatistics.cache`). Added by `StandardFeatures.cache`.
///
/// **Thread:** every `PlayerFeature` call runs on the player's loop thread, and so does every
/// use of its mutable state (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle); the revalidation runs on a worker
/// thread and comes back through its handle (`FeatureContext.confine(_:)`).
public final class CacheFeature: PlayerFeature, URIResolver, MessageInterceptor {
    /// The cache it reads and stores into.
    public let cache: MediaCache
    /// The player's context (``attach(to:)``).
    var context: FeatureContext?
    /// The download of the current URI and the revalidation under way.
    let download = CacheDownload()
    /// The verdict on the current media (the statistics' `cache` section), nil for none.
    var status: CacheStatus?
    /// A load was decided here (``resolve(_:)``) and its `uriLoaded` has not been published yet.
    var loading = false
    /// The verdict made while deciding the load, published right after its `uriLoaded`.
    var announcePending = false
    /// The line saying what a repair of a damaged index dropped, published as a warning after
    /// the `uriLoaded` of the load that found it.
    var pendingNotice: String?
    /// Stores the download as soon as it is complete, not only at EOS or stop (the completion
    /// message can be missing in 1.22).
    var checkTimer: TimerSource?
    /// The http(s) URI whose cached copy is playing (a hit), nil otherwise.
    var playingCopyOf: String?
    /// URIs whose broken copy was removed and fetched again by this player (once each).
    var refetched: Set<String> = []
    /// A broken copy's URI is about to be loaded again: its further errors are swallowed.
    var refetchPending = false

    /// A feature storing into and playing from `cache`.
    public init(cache: MediaCache) { self.cache = cache }

    /// Keeps `context`; registers as a URI resolver and a message interceptor.
    public func attach(to context: FeatureContext) {
        self.context = context
        context.provideURIResolver(self, order: .mediaCache)
        context.interceptMessages(self, order: .mediaCache)
    }

    /// Cancels the revalidation under way and removes the completion check.
    public func teardown() {
        download.cancelValidation()
        checkTimer?.destroy()
        checkTimer = nil
    }

    /// An http(s) URI: `LoadDecision.wait` while a cached copy is revalidated, else the cached
    /// file's `file://` URI on a hit, or `uri` with a download into the cache on a miss.
    public func resolve(_ uri: String) -> LoadDecision {
        let network = URIScheme.isHTTP(uri)
        playingCopyOf = nil
        refetchPending = false
        guard network else {
            loading = true
            status = nil
            announcePending = false
            return .play(uri)
        }
        let lookup = cache.lookUpForPlay(uri)
        if let notice = lookup.notice { pendingNotice = "media cache: " + notice }
        if validateFirst(uri, cached: lookup.entry) { return .wait }
        loading = true
        status = nil
        announcePending = false
        return .play(resolve(uri, lookup: lookup))
    }

    /// A load that did not come through ``resolve(_:)`` (one that failed before) has no verdict.
    public func resetForNewMedia(uri: String?) {
        if !loading { status = nil }
    }

    /// `GstCacheDownloadComplete` and the `http-headers` of the download (passed on: the core
    /// still sees them); an error of a broken cached copy (consumed: the URI is fetched again,
    /// `consumeErrorOfBrokenCopy(_:)`).
    public func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        if consumeErrorOfBrokenCopy(message) { return .consumed }
        if CGStreamer_message_type(message) == GST_MESSAGE_EOS, download.current.uri != nil { download.update { $0.endOfStream = true } }
        guard CGStreamer_message_type(message) == GST_MESSAGE_ELEMENT, let structure = gst_message_get_structure(message) else { return .proceed }
        if gst_structure_has_name(structure, "GstCacheDownloadComplete") != 0 {
            downloadCompleted()
        } else if gst_structure_has_name(structure, "http-headers") != 0 {
            absorbHeaders(structure)
        }
        return .proceed
    }

    /// Right after a load's `uriLoaded`: publishes the verdict made while deciding it. A
    /// `uriLoaded` of media the cache did not decide (a gapless hand-over) clears the verdict.
    public func observe(_ event: PlayerEvent) {
        guard case .uriLoaded = event else { return }
        guard loading else { status = nil; return }
        loading = false
        if let notice = pendingNotice {
            pendingNotice = nil
            context?.publish(.warning(PlayerError(kind: .other, message: notice, uri: nil)))
        }
        if announcePending, let status {
            announcePending = false
            context?.publish(CacheEvent.status(status))
        }
    }

    /// Stores a complete download, discards any other; cancels a revalidation under way.
    public func finished() {
        checkTimer?.destroy()
        checkTimer = nil
        finish(final: true)
    }

    /// The `cache` section: the verdict on the current media.
    public func contributeStatistics(to sections: inout FeatureSections) {
        sections[CacheStatus.self] = status
    }

    /// Sets the verdict (statistics, trace) and publishes it, or — while the load is being
    /// decided — leaves it for its `uriLoaded`.
    func setStatus(_ status: CacheStatus, deferred: Bool = false) {
        self.status = status
        context?.trace("cache \(status) \(status.path ?? "")")
        if deferred {
            announcePending = true
        } else {
            context?.publish(CacheEvent.status(status))
        }
    }
}

public extension ExtensionOrder {
    /// The media cache's rank among the URI resolvers (it replaces an http(s) URI by its cached
    /// copy) and among the message interceptors (after the play queue).
    static let mediaCache = ExtensionOrder(200)
}
