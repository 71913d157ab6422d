import BackendCore
import Dispatch

/// Revalidation of cache hits (RFC 9111 §4.3), loop thread.
///
/// A hit whose copy is older than the cache's revalidation interval (or the server's `max-age`,
/// or marked `no-cache`) is checked with one conditional request on a worker thread before it
/// plays: 304 → the copy plays (its validation time is recorded in the index); 2xx → the copy is
/// removed and the URI plays from the network (and is stored anew); no answer → the copy plays
/// (a warning says so). Within the interval, and with ``MediaCache/offline``, no request is made.
extension CacheFeature {
    /// Starts a revalidation of `uri` when its cached copy (`cached`) needs one; afterwards the
    /// same load runs again (``FeatureTransport/load(_:start:)``, same start position) on the loop
    /// thread, unless another load, a stop or teardown came first. Returns false when `uri` can
    /// be loaded now.
    func validateFirst(_ uri: String, cached: MediaCache.Entry?) -> Bool {
        guard let context, !download.takeValidated(uri), let entry = cached, cache.needsValidation(entry) else { return false }
        let (generation, cancellable) = download.beginValidation()
        let timeout = UInt32(clamping: max(1, context.configuration.networkTimeout.components.seconds))
        let start = context.media.loadingStart
        let cache = self.cache
        context.trace("cache revalidating \(uri)")
        let feature = context.confine(self)
        DispatchQueue.global(qos: .userInitiated).async {
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
            feature.runOnLoop { [note] feature in
                guard let feature, let context = feature.context, feature.download.endValidation(generation, uri: uri) else { return }
                context.trace("cache revalidated \(uri): \(outcome)")
                if let note { context.publish(.warning(PlayerError(kind: .other, message: note, uri: uri))) }
                context.transport.load(uri, start: start)
            }
        }
        return true
    }
}
