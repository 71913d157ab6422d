import GLibSupport

/// The download of the current URI into the cache: what the server said about the body, and the
/// revalidation of a cache hit under way. The `downloadbuffer` writing the body belongs to the
/// core (``FeatureDownload/buffer``).
///
/// **Thread:** loop thread only: it is reached through the cache feature alone, which lives
/// there (the revalidation worker gets only its `Cancellable`), so no lock.
final class CacheDownload {
    /// One download.
    struct State: Sendable {
        /// The URI being downloaded, nil when nothing is (a hit, a local file, stored or discarded).
        var uri: String?
        /// Length of the whole body: the Content-Length of the first 200 response (nil when it
        /// was encoded: the length is then the encoded one's, not the file's).
        var contentLength: Int64?
        /// The first response's `Content-Encoding` other than `identity` (`gzip`: libsoup
        /// decodes it, so the file holds more bytes than its Content-Length), nil when none.
        var encoding: String?
        var etag: String?
        var lastModified: String?
        /// The first response's `Cache-Control` (a `no-store` download is never kept).
        var control: CacheControl?
        /// Responses seen (`http-headers` messages): more than one means a Range request.
        var responses = 0
        /// `GstCacheDownloadComplete` arrived.
        var completeMessage = false
        /// The pipeline's end of stream arrived: every stream, the source's included, ended.
        var endOfStream = false
    }

    private var state = State()

    /// A copy of the state.
    var current: State { state }

    /// Changes the state.
    func update(_ change: (inout State) -> Void) { change(&state) }

    /// Starts a download of `uri`.
    func begin(uri: String) { state = State(uri: uri) }

    // MARK: Revalidation

    /// The revalidation of a cache hit under way, if any.
    struct Validation: Sendable {
        /// Bumped by every start and cancel: a result of an older generation is dropped.
        var generation: UInt64 = 0
        var cancellable: Cancellable?
        /// The URI just revalidated: its next load plays without asking again.
        var validated: String?
    }

    /// Revalidation state.
    private var validation = Validation()

    /// Starts a revalidation: cancels one under way; returns its generation and cancellable.
    func beginValidation() -> (UInt64, Cancellable) {
        let cancellable = Cancellable()
        let old = validation.cancellable
        validation.generation += 1
        validation.cancellable = cancellable
        validation.validated = nil
        old?.cancel()
        return (validation.generation, cancellable)
    }

    /// Cancels a revalidation under way (a new load, stop, an error, teardown).
    func cancelValidation() {
        guard let old = validation.cancellable else { return }
        validation.generation += 1
        validation.cancellable = nil
        old.cancel()
    }

    /// The result of `generation` for `uri` arrived (loop thread): true when it is still the
    /// current one; `uri` is then marked validated for the load that follows.
    func endValidation(_ generation: UInt64, uri: String) -> Bool {
        guard validation.generation == generation, validation.cancellable != nil else { return false }
        validation.cancellable = nil
        validation.validated = uri
        return true
    }

    /// True (once) when `uri` was just revalidated.
    func takeValidated(_ uri: String) -> Bool {
        guard validation.validated == uri else { return false }
        validation.validated = nil
        return true
    }

    /// Ends the download: returns its state and forgets it.
    func finish() -> State {
        defer { state = State() }
        return state
    }
}
