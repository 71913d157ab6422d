import CGStreamer
import Synchronization

/// The download of the current URI into the cache: the `downloadbuffer` playbin inserted, the
/// partial file it writes and what the server said about the body.
///
/// **Threads:** `deep-element-added` runs on a streaming thread and calls ``adopt(_:)``; every
/// other call comes from the loop thread. All state sits behind one `Mutex`; the element is
/// kept with one reference (`gst_object_ref`), dropped by ``finish()``.
final class CacheDownload: Sendable {
    /// An element reference carried across threads (GStreamer objects are thread-safe refcounted).
    struct Ref: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GstElement>
        var object: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
    }

    /// One download.
    struct State: Sendable {
        /// The URI being downloaded, nil when nothing is (a hit, a local file, no cache).
        var uri: String?
        /// `temp-template` for the downloadbuffer.
        var template: String?
        /// `temp-template` for a download that is not kept (no usable cache directory): the
        /// downloadbuffer deletes its file itself.
        var fallbackTemplate: String?
        /// The downloadbuffer, once added.
        var element: Ref?
        /// Length of the whole body: the Content-Length of the first 200 response.
        var contentLength: Int64?
        var etag: String?
        var lastModified: String?
        /// The first response's `Cache-Control` (a `no-store` download is never kept).
        var control: CacheControl?
        /// No writable directory for a download file: play without the download flag.
        var withoutFile = false
        /// Responses seen (`http-headers` messages): more than one means a Range request.
        var responses = 0
        /// `GstCacheDownloadComplete` arrived.
        var completeMessage = false
        /// The status last published.
        var status: CacheStatus?
    }

    private let state = Mutex(State())

    /// A snapshot of the state.
    var current: State { state.withLock { $0 } }

    /// Changes the state under the lock.
    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Starts a download of `uri` into files made from `template` (loop thread).
    func begin(uri: String, template: String) {
        let old = state.withLock { current -> State in
            let old = current
            current = State(uri: uri, template: template)
            return old
        }
        if let element = old.element { gst_object_unref(element.object) }
    }

    /// Plays the next http(s) URI with a download file from `template` that is not kept, or
    /// without a download file when `template` is nil (loop thread).
    func beginTemporary(template: String?) {
        let old = state.withLock { current -> State in
            let old = current
            current = State(fallbackTemplate: template, withoutFile: template == nil)
            return old
        }
        if let element = old.element { gst_object_unref(element.object) }
    }

    /// `deep-element-added` (a streaming thread): configures a `downloadbuffer` of the current
    /// download to write into the cache's `partial/` directory and keep its file at READY, or
    /// to write its (deleted) file from the fallback template.
    func adopt(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element),
              String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory)))) == "downloadbuffer"
        else { return }
        state.withLock { current in
            if current.template == nil, let fallback = current.fallbackTemplate {
                CGStreamer_set_string(UnsafeMutableRawPointer(element), "temp-template", fallback)
                return
            }
            guard let template = current.template, current.element == nil else { return }
            CGStreamer_set_string(UnsafeMutableRawPointer(element), "temp-template", template)
            CGStreamer_set_boolean(UnsafeMutableRawPointer(element), "temp-remove", 0)
            _ = gst_object_ref(UnsafeMutableRawPointer(element))
            current.element = Ref(pointer: element)
        }
    }

    // MARK: Revalidation (issue 20)

    /// The revalidation of a cache hit under way, if any, and what the player said once.
    struct Validation: Sendable {
        /// Bumped by every start and cancel: a result of an older generation is dropped.
        var generation: UInt64 = 0
        var cancellable: CacheValidator.Cancellable?
        /// The URI just revalidated: its next load plays without asking again.
        var validated: String?
        /// The download-file fallback was announced (once per player).
        var announcedFallback = false
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

    /// Ends the download: returns its state and forgets it; the caller owns the element
    /// reference in the returned state and must `gst_object_unref` it.
    func finish() -> State {
        state.withLock { current -> State in
            let old = current
            current = State()
            return old
        }
    }
}
