import CGStreamer
import Dispatch
import Glibc

/// Revalidation of cache hits (issue 20, RFC 9111 §4.3) and the download file's fallback
/// directory (loop thread).
///
/// A hit whose copy is older than the cache's revalidation interval (or the server's `max-age`,
/// or marked `no-cache`) is checked with one conditional request on a worker thread before it
/// plays: 304 → the copy plays (its validation time is recorded in the index); 2xx → the copy is
/// removed and the URI plays from the network (and is stored anew); no answer → the copy plays
/// (a warning says so). Within the interval, and with ``MediaCache/offline``, no request is made.
extension Engine {
    /// Starts a revalidation of `uri` when it is a cached copy that needs one; `then` runs on the
    /// loop thread afterwards (the load again) unless another load, a stop or teardown came
    /// first. Returns false when `uri` can be loaded now.
    func cacheValidateFirst(_ uri: String, then: @escaping @Sendable () -> Void) -> Bool {
        guard let cache = configuration.cache, uri.hasPrefix("http://") || uri.hasPrefix("https://"),
              !cacheDownload.takeValidated(uri), let entry = cache.find(uri), cache.needsValidation(entry) else { return false }
        let (generation, cancellable) = cacheDownload.beginValidation()
        let timeout = UInt32(clamping: max(1, configuration.networkTimeout.components.seconds))
        trace("cache revalidating \(uri)")
        DispatchQueue.global(qos: .userInitiated).async { [weak self, loop] in
            let outcome = CacheValidator.validate(uri: uri, etag: entry.etag, lastModified: entry.lastModified,
                                                  timeoutSeconds: timeout, cancellable: cancellable)
            // The index changes here, off the loop thread.
            var note: String?
            switch outcome {
            case .notModified(let control) where control?.noStore == true, .modified(let control) where control?.noStore == true:
                _ = try? cache.remove(uri)
            case .notModified(let control):
                do { try cache.markValidated(uri, control: control) } catch { note = "media cache: \((error as? MediaCache.Problem)?.description ?? "\(error)")" }
            case .modified:
                _ = try? cache.remove(uri)
            case .failed(let reason):
                note = "media cache: could not revalidate (\(reason)); playing the cached copy"
            }
            _ = loop.invoke { [weak self] in
                guard let self, self.cacheDownload.endValidation(generation, uri: uri) else { return }
                self.trace("cache revalidated \(uri): \(outcome)")
                if let note { self.publish(.warning(PlayerError(kind: .other, message: note, uri: uri))) }
                then()
            }
        }
        return true
    }

    /// The download file cannot go to the cache (`reason`, nil without a cache): when
    /// `g_get_user_cache_dir()` — where uridecodebin puts it — is not a writable directory, it
    /// goes to `g_get_tmp_dir()`, and when that is not writable either the URI plays without a
    /// download file. Says so once per player (a warning).
    func prepareTemporaryDownload(because reason: String?) {
        var note = reason
        let cacheHome = String(cString: g_get_user_cache_dir())
        if !Self.writableDirectory(cacheHome) {
            let tmp = String(cString: g_get_tmp_dir())
            if Self.writableDirectory(tmp) {
                cacheDownload.beginTemporary(template: tmp + "/gstplay-XXXXXX")
                note = (note.map { $0 + "; " } ?? "") + "'\(cacheHome)' is not a writable directory: download file in \(tmp)"
            } else {
                cacheDownload.beginTemporary(template: nil)
                note = (note.map { $0 + "; " } ?? "") + "neither '\(cacheHome)' nor '\(tmp)' is a writable directory: playing without a download file"
            }
        } else if reason != nil {
            note! += "; playing without storing"
        }
        guard let note, cacheDownload.validation.withLock({ v in
            defer { v.announcedFallback = true }
            return !v.announcedFallback
        }) else { return }
        publish(.warning(PlayerError(kind: .resource, message: note, uri: facts.uri)))
    }

    /// True when `path` is (or could be made, `g_mkdir_with_parents`) a directory we can write in.
    private static func writableDirectory(_ path: String) -> Bool {
        guard g_file_test(path, G_FILE_TEST_IS_DIR) != 0 || g_mkdir_with_parents(path, 0o700) == 0 else { return false }
        return access(path, W_OK | X_OK) == 0
    }
}
