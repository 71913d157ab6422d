import Synchronization

/// The download of the current URI into the cache: what the server said about the body, and the
/// revalidation of a cache hit under way. The `downloadbuffer` writing the body belongs to the
/// core (``FeatureDownload/buffer``).
///
/// **Threads:** the loop thread, and the revalidation worker (its ``Validation``). All state sits
/// behind `Mutex`es.
final class CacheDownload: Sendable {
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

    private let state = Mutex(State())

    /// A snapshot of the state.
    var current: State { state.withLock { $0 } }

    /// Changes the state under the lock.
    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Starts a download of `uri` (loop thread).
    func begin(uri: String) { state.withLock { $0 = State(uri: uri) } }

    // MARK: Revalidation

    /// The revalidation of a cache hit under way, if any.
    struct Validation: Sendable {
        /// Bumped by every start and cancel: a result of an older generation is dropped.
        var generation: UInt64 = 0
        var cancellable: CacheValidator.Cancellable?
        /// The URI just revalidated: its next load plays without asking again.
        var validated: String?
    }

    /// Revalidation state (loop thread and the validation worker).
    let validation = Mutex(Validation())

    /// Starts a revalidation: cancels one under way; returns its generation and cancellable.
    func beginValidation() -> (UInt64, CacheValidator.Cancellable) {
        let cancellable = CacheValidator.Cancellable()
        let (generation, old) = validation.withLock { v -> (UInt64, CacheValidator.Cancellable?) in
            let old = v.cancellable
            v.generation += 1
            v.cancellable = cancellable
            v.validated = nil
            return (v.generation, old)
        }
        old?.cancel()
        return (generation, cancellable)
    }

    /// Cancels a revalidation under way (a new load, stop, an error, teardown).
    func cancelValidation() {
        let old = validation.withLock { v -> CacheValidator.Cancellable? in
            guard let old = v.cancellable else { return nil }
            v.generation += 1
            v.cancellable = nil
            return old
        }
        old?.cancel()
    }

    /// The result of `generation` for `uri` arrived (loop thread): true when it is still the
    /// current one; `uri` is then marked validated for the load that follows.
    func endValidation(_ generation: UInt64, uri: String) -> Bool {
        validation.withLock { v in
            guard v.generation == generation, v.cancellable != nil else { return false }
            v.cancellable = nil
            v.validated = uri
            return true
        }
    }

    /// True (once) when `uri` was just revalidated.
    func takeValidated(_ uri: String) -> Bool {
        validation.withLock { v in
            guard v.validated == uri else { return false }
            v.validated = nil
            return true
        }
    }

    /// Ends the download: returns its state and forgets it.
    func finish() -> State {
        state.withLock { current -> State in
            let old = current
            current = State()
            return old
        }
    }
}
