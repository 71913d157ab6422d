import CGStreamer
import Dispatch
import Glibc

/// The media cache in the player (loop thread): a hit plays the cached file; a miss plays over
/// http with download buffering into the cache's `partial/` directory and is stored only when
/// every byte arrived, contiguously, and agrees with the Content-Length (seed 001).
///
/// Completion is judged from three facts, since none is reliable alone in 1.22: the
/// downloadbuffer's `GST_QUERY_BUFFERING` ranges (one range 0…length: no gap left by a seek),
/// the partial file's size against the Content-Length, and the `GstCacheDownloadComplete`
/// message (which can be missing when the download ends before the demuxer reads).
extension Engine {
    /// Connects `deep-element-added` to catch the `downloadbuffer` when downloads are buffered
    /// to a file (a cache, or ``PlayerConfiguration/progressiveDownload``).
    func connectCache() {
        guard configuration.cache != nil || configuration.progressiveDownload, let pipeline, let playbin = pipeline.object else { return }
        let id = CGStreamer_signal_connect_3(playbin, "deep-element-added", { _, _, element, data in
            guard let element, let data else { return }
            CallbackBox<CacheDownload>.from(data).value.adopt(element.assumingMemoryBound(to: GstElement.self))
        }, CallbackBox(cacheDownload).retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: id, on: playbin)
    }

    /// The URI playbin gets for `uri`: the cached file's `file://` URI on a hit, else `uri`
    /// (a download into the cache begins for http(s) URIs). Publishes `hit` or `miss`. Without
    /// a usable cache directory the download file goes where ``prepareTemporaryDownload(because:)`` says.
    func cacheResolve(_ uri: String) -> String {
        guard uri.hasPrefix("http://") || uri.hasPrefix("https://") else { return uri }
        guard let cache = configuration.cache else {
            if configuration.progressiveDownload { prepareTemporaryDownload(because: nil) }
            return uri
        }
        do {
            if let entry = cache.find(uri) {
                let path = cache.path(of: entry)
                // The LRU write (index rewrite, fsyncs) runs off the loop thread and after the
                // start-up (a second later), so its disk flushes do not compete with the first
                // reads of the file. Repair of a broken cache happens on the miss path below.
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 1) { try? cache.touch(uri) }
                setCacheStatus(CacheStatus(state: .hit, path: path))
                return String(takingGLibString: gst_filename_to_uri(path, nil)) ?? uri
            }
            cacheDownload.begin(uri: uri, template: try cache.partialTemplate(for: uri))
            setCacheStatus(CacheStatus(state: .miss))
            // Stores as soon as the download is complete, not only at EOS or stop (the
            // completion message can be missing in 1.22).
            timers.cacheCheck = loop.addTimer(every: .milliseconds(500)) { [unowned self] in
                if self.cacheDownload.current.uri != nil { self.cacheFinish(final: false) }
                guard self.cacheDownload.current.uri == nil else { return true }
                self.timers.cacheCheck = nil
                return false
            }
        } catch {
            prepareTemporaryDownload(because: "media cache: \(error.description)")
        }
        return uri
    }

    /// An `http-headers` message: the first 200 response gives the length, ETag and Last-Modified.
    func cacheAbsorbHeaders(_ structure: UnsafePointer<GstStructure>, status: Int?) {
        guard cacheDownload.current.uri != nil else { return }
        var headers: UnsafePointer<GstStructure>?
        if let value = gst_structure_get_value(structure, "response-headers") { headers = gst_value_get_structure(value) }
        let field = { (name: String) in headers.flatMap { Self.header($0, name) } }
        var starting = false
        cacheDownload.update { download in
            download.responses += 1
            guard download.responses == 1, status == 200 else { return }
            download.contentLength = field("Content-Length").flatMap { Int64($0) }
            download.etag = field("ETag")
            download.lastModified = field("Last-Modified")
            download.control = CacheControl(header: field("Cache-Control"))
            starting = true
        }
        if starting { setCacheStatus(CacheStatus(state: .storing, path: partialLocation())) }
    }

    /// `GstCacheDownloadComplete`: stores now when the data is complete (else waits for EOS/stop).
    func cacheDownloadCompleted() {
        cacheDownload.update { $0.completeMessage = true }
        cacheFinish(final: false)
    }

    /// Judges the download (see the type's description) and stores or, when `final` (EOS, stop,
    /// a new load, an error, teardown), discards it. Call before the pipeline leaves PAUSED.
    func cacheFinish(final: Bool) {
        if final { cacheDownload.cancelValidation() }
        let download = cacheDownload.current
        guard let cache = configuration.cache, let uri = download.uri else {
            if final { _ = cacheDownload.finish() }      // a temporary download file: nothing to keep
            return
        }
        let location = partialLocation()
        let verdict = Self.completeness(download, location: location)
        if verdict != nil && !final { return }
        let finished = cacheDownload.finish()
        if let element = finished.element { gst_object_unref(element.object) }
        guard let location, let length = download.contentLength, verdict == nil else {
            if let location { unlink(location) }
            setCacheStatus(CacheStatus(state: .discarded, reason: verdict ?? "nothing was downloaded"))
            return
        }
        do {
            let entry = try cache.store(uri: uri, file: location, expectedSize: length, etag: download.etag, lastModified: download.lastModified,
                                        control: download.control)
            setCacheStatus(CacheStatus(state: .stored, path: cache.path(of: entry)))
        } catch {
            setCacheStatus(CacheStatus(state: .discarded, reason: error.description))
        }
    }

    // MARK: Helpers

    /// The downloadbuffer's `temp-location`, nil before it opened its file.
    private func partialLocation() -> String? {
        guard let element = cacheDownload.current.element else { return nil }
        return String(takingGLibString: CGStreamer_get_string(element.object, "temp-location"))
    }

    /// Nil when complete, else why not.
    private static func completeness(_ download: CacheDownload.State, location: String?) -> String? {
        guard let location else { return "no download buffer (the server gave no size)" }
        guard let length = download.contentLength, length > 0 else { return "the server gave no length" }
        if let element = download.element, let ranges = BufferingQuery.ask(element.pointer, format: GST_FORMAT_BYTES)?.ranges {
            if ranges.count > 1 || (ranges.first?.start ?? 0) > 0 { return "disjoint download (a seek beyond the downloaded data)" }
            if (ranges.first?.stop ?? 0) < length { return "incomplete download: \(ranges.first?.stop ?? 0) of \(length) bytes" }
        } else if !download.completeMessage {
            return "download not complete"
        }
        var info = stat()
        guard stat(location, &info) == 0 else { return "the partial file is gone" }
        return Int64(info.st_size) == length ? nil : "incomplete download: \(info.st_size) of \(length) bytes"
    }

    /// A response header by name, case-insensitively (souphttpsrc keeps the server's spelling).
    private static func header(_ headers: UnsafePointer<GstStructure>, _ name: String) -> String? {
        for index in 0..<gst_structure_n_fields(headers) {
            guard let field = gst_structure_nth_field_name(headers, guint(index)) else { continue }
            let fieldName = String(cString: field)
            guard fieldName.lowercased() == name.lowercased() else { continue }
            return gst_structure_get_string(headers, field).map { String(cString: $0) }
        }
        return nil
    }

    /// Publishes a new cache status (event, statistics, trace) when it changed.
    private func setCacheStatus(_ status: CacheStatus) {
        statistics.current.cache = status
        trace("cache \(status) \(status.path ?? "")")
        publish(.cache(status))
    }
}
