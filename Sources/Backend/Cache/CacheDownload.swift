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
        /// The downloadbuffer, once added.
        var element: Ref?
        /// Length of the whole body: the Content-Length of the first 200 response.
        var contentLength: Int64?
        var etag: String?
        var lastModified: String?
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

    /// `deep-element-added` (a streaming thread): configures a `downloadbuffer` of the current
    /// download to write into the cache's `partial/` directory and keep its file at READY.
    func adopt(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element),
              String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory)))) == "downloadbuffer"
        else { return }
        state.withLock { current in
            guard let template = current.template, current.element == nil else { return }
            CGStreamer_set_string(UnsafeMutableRawPointer(element), "temp-template", template)
            CGStreamer_set_boolean(UnsafeMutableRawPointer(element), "temp-remove", 0)
            _ = gst_object_ref(UnsafeMutableRawPointer(element))
            current.element = Ref(pointer: element)
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
