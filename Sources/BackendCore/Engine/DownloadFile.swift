import CGStreamer
import Synchronization

/// playbin's download file for the current load (progressive download buffering, playbin's
/// `download` flag): where the `downloadbuffer` uridecodebin adds writes it, and — when a feature
/// keeps the file (``FeatureDownload/keep(in:)``, the media cache) — the element itself.
///
/// **Threads:** `deep-element-added` runs on a streaming thread and calls ``adopt(_:)``; every
/// other call comes from the loop thread. All state sits behind one `Mutex`; a kept element holds
/// one reference (`gst_object_ref`), dropped by ``reset()``.
final class DownloadFile: Sendable {
    /// An element reference carried across threads (GStreamer objects are thread-safe refcounted).
    struct Ref: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GstElement>
        var object: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
    }

    /// The download file of one load.
    struct State: Sendable {
        /// A feature asked for download buffering of this load (kept or not), so the `download`
        /// flag is set even when ``PlayerConfiguration/progressiveDownload`` is off.
        var requested = false
        /// `temp-template` of a download a feature keeps (`temp-remove` off).
        var keepTemplate: String?
        /// Why the feature that asked could not keep the download (said in the fallback's warning).
        var notKeptBecause: String?
        /// `temp-template` for a download that is not kept, when the default place
        /// (`g_get_user_cache_dir()`) is not writable: the downloadbuffer deletes its file itself.
        var fallbackTemplate: String?
        /// No writable directory for a download file: play without the download flag.
        var withoutFile = false
        /// The downloadbuffer that writes a kept download, once added.
        var element: Ref?
    }

    private let state = Mutex(State())

    /// A snapshot of the state.
    var current: State { state.withLock { $0 } }

    /// Changes the state under the lock.
    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Forgets the load's download file and drops the kept element's reference (loop thread).
    func reset() {
        let old = state.withLock { current -> State in
            let old = current
            current = State()
            return old
        }
        if let element = old.element { gst_object_unref(element.object) }
    }

    /// `deep-element-added` (a streaming thread): a `downloadbuffer` writes a kept download from
    /// its template and keeps its file at READY (the first one of the load is kept, with a
    /// reference), or writes its (deleted) file from the fallback template.
    func adopt(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element),
              String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory)))) == "downloadbuffer"
        else { return }
        state.withLock { current in
            if current.keepTemplate == nil, let fallback = current.fallbackTemplate {
                CGStreamer_set_string(UnsafeMutableRawPointer(element), "temp-template", fallback)
                return
            }
            guard let template = current.keepTemplate, current.element == nil else { return }
            CGStreamer_set_string(UnsafeMutableRawPointer(element), "temp-template", template)
            CGStreamer_set_boolean(UnsafeMutableRawPointer(element), "temp-remove", 0)
            _ = gst_object_ref(UnsafeMutableRawPointer(element))
            current.element = Ref(pointer: element)
        }
    }
}
