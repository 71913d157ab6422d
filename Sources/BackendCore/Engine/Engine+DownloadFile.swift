import CGStreamer
import GLibSupport
import Glibc

/// Progressive download buffering (loop thread): where playbin's download file goes. By default
/// uridecodebin puts it in `g_get_user_cache_dir()`; a feature may keep it instead
/// (``FeatureDownload/keep(in:)``, the media cache), and when no place is writable the URI
/// plays without one. The `download` flag itself is set by ``Engine/applyDownloadFlag(for:)``.
extension Engine {
    /// Connects `deep-element-added` to catch the `downloadbuffer` of each load (``DownloadFile``).
    func connectDownloadBuffer() {
        guard let pipeline, let playbin = pipeline.object else { return }
        let id = CGStreamer_signal_connect_3(playbin, "deep-element-added", { _, _, element, data in
            guard let element, let data else { return }
            CallbackBox<DownloadFile>.from(data).value.adopt(element.assumingMemoryBound(to: GstElement.self))
        }, CallbackBox(downloadFile).retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: id, on: playbin)
    }

    /// Decides the download file of `uri` (the URI playbin gets, after the features' say), right
    /// after the load is announced: a kept download goes where its feature said; otherwise, for
    /// http(s) with ``PlayerConfiguration/progressiveDownload`` or a feature that could not keep
    /// its download, to the default place or the fallback (``prepareTemporaryDownload(because:)``).
    func prepareDownloadFile(for uri: String) {
        guard URIScheme.isHTTP(uri) else { return }
        let file = downloadFile.current
        guard file.keepTemplate == nil else { return }
        if let reason = file.notKeptBecause {
            prepareTemporaryDownload(because: reason)
        } else if configuration.progressiveDownload {
            prepareTemporaryDownload(because: nil)
        }
    }

    /// The download file is not kept (`reason`: why a feature could not keep it, nil when none
    /// asked): when `g_get_user_cache_dir()` — where uridecodebin puts it — is not a writable
    /// directory, it goes to `g_get_tmp_dir()`, and when that is not writable either the URI
    /// plays without a download file. Says so once per player (a warning).
    func prepareTemporaryDownload(because reason: String?) {
        var note = reason
        let cacheHome = String(cString: g_get_user_cache_dir())
        if !Self.writableDirectory(cacheHome) {
            let tmp = String(cString: g_get_tmp_dir())
            if Self.writableDirectory(tmp) {
                downloadFile.update { $0.fallbackTemplate = tmp + "/gstplay-XXXXXX" }
                note = (note.map { $0 + "; " } ?? "") + "'\(cacheHome)' is not a writable directory: download file in \(tmp)"
            } else {
                downloadFile.update { $0.withoutFile = true }
                note = (note.map { $0 + "; " } ?? "") + "neither '\(cacheHome)' nor '\(tmp)' is a writable directory: playing without a download file"
            }
        } else if reason != nil {
            note! += "; playing without storing"
        }
        guard let note, !downloadFallbackAnnounced else { return }
        downloadFallbackAnnounced = true
        publish(.warning(PlayerError(kind: .resource, message: note, uri: facts.uri)))
    }

    /// True when `path` is (or could be made, `g_mkdir_with_parents`) a directory we can write in.
    private static func writableDirectory(_ path: String) -> Bool {
        guard g_file_test(path, G_FILE_TEST_IS_DIR) != 0 || g_mkdir_with_parents(path, 0o700) == 0 else { return false }
        return access(path, W_OK | X_OK) == 0
    }
}
