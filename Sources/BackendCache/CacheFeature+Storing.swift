import BackendCore
import CGStreamer
import Dispatch
import Glibc

/// Hits, and downloads into the cache (loop thread): see ``CacheFeature``.
extension CacheFeature {
    /// The URI playbin gets for the http(s) `uri` (`lookup`: the cache's answer for it, made by
    /// ``resolve(_:)``): the cached file's `file://` URI on a hit,
    /// else `uri` with a download into the cache. The verdict (`hit` or `miss`) follows the
    /// load's `uriLoaded`. Without a usable cache (no writable directory, an unreadable index or
    /// one of a newer version) the download file is not kept
    /// (``FeatureDownload/withoutKeeping(because:)``: one warning). What a repair of a
    /// damaged index dropped is one warning after the `uriLoaded`.
    func resolve(_ uri: String, lookup: MediaCache.PlayLookup) -> String {
        if let unusable = lookup.unusable {
            context?.download.withoutKeeping(because: "media cache: \(unusable.description)")
            return uri
        }
        do {
            if let entry = lookup.entry {
                let path = cache.path(of: entry)
                // The LRU write (index rewrite, fsyncs) runs off the loop thread and after the
                // start-up (a second later), so its disk flushes do not compete with the first
                // reads of the file. Repair of a broken cache happens on the miss path below.
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 1) { [cache] in try? cache.touch(uri) }
                setStatus(CacheStatus(state: .hit, path: path), deferred: true)
                playingCopyOf = uri
                return String(takingGLibString: gst_filename_to_uri(path, nil)) ?? uri
            }
            let template = try cache.partialTemplate(for: uri)
            download.begin(uri: uri)
            context?.download.keep(in: template)
            setStatus(CacheStatus(state: .miss), deferred: true)
            checkTimer = context?.loop.addTimer(every: .milliseconds(500)) { [weak self] in self?.checkDownload() ?? false }
        } catch {
            context?.download.withoutKeeping(because: "media cache: \(error.description)")
        }
        return uri
    }

    /// The completion check (every 500 ms while downloading): false once the download is over.
    private func checkDownload() -> Bool {
        if download.current.uri != nil { finish(final: false) }
        guard download.current.uri == nil else { return true }
        checkTimer = nil
        return false
    }

    /// An `http-headers` message: the first 200 response gives the length, ETag and Last-Modified.
    /// Features see bus messages before the core's redirect handling, so what the core keeps
    /// from the cache is skipped here: a late answer to an earlier redirect hop, and a 3xx with
    /// a `Location` (not the media's response).
    func absorbHeaders(_ structure: UnsafePointer<GstStructure>) {
        guard let context, download.current.uri != nil else { return }
        if let target = context.media.redirectTarget, let answered = gst_structure_get_string(structure, "uri"),
           String(cString: answered) != target { return }
        var code: guint = 0
        let status = gst_structure_get_uint(structure, "http-status-code", &code) != 0 ? Int(code) : context.media.lastHTTPStatus
        var headers: UnsafePointer<GstStructure>?
        if let value = gst_structure_get_value(structure, "response-headers") { headers = gst_value_get_structure(value) }
        let field = { (name: String) in headers.flatMap { Self.header($0, name) } }
        if let status, (300..<400).contains(status), status != 304, field("Location") != nil { return }
        var starting = false
        download.update { download in
            download.responses += 1
            guard download.responses == 1, status == 200 else { return }
            download.encoding = field("Content-Encoding").flatMap { $0.lowercased() == "identity" ? nil : $0 }
            download.contentLength = download.encoding == nil ? field("Content-Length").flatMap { Int64($0) } : nil
            download.etag = field("ETag")
            download.lastModified = field("Last-Modified")
            download.control = CacheControl(header: field("Cache-Control"))
            starting = true
        }
        if starting { setStatus(CacheStatus(state: .storing, path: partialLocation())) }
    }

    /// `GstCacheDownloadComplete`: stores now when the data is complete (else waits for EOS/stop).
    func downloadCompleted() {
        guard download.current.uri != nil else { return }
        download.update { $0.completeMessage = true }
        finish(final: false)
    }

    /// Judges the download (see ``CacheFeature``) and stores or, when `final` (EOS, stop, a new
    /// load, an error, teardown), discards it. Runs before the pipeline leaves PAUSED.
    func finish(final: Bool) {
        if final { download.cancelValidation() }
        let current = download.current
        guard let uri = current.uri else {
            if final { _ = download.finish() }
            return
        }
        let location = partialLocation()
        let verdict = Self.completeness(current, element: context?.download.buffer, location: location)
        if verdict != nil && !final { return }
        _ = download.finish()
        guard let location, let length = current.contentLength ?? Self.decodedSize(current, location: location), verdict == nil else {
            if let location { unlink(location) }
            setStatus(CacheStatus(state: .discarded, reason: verdict ?? "nothing was downloaded"))
            return
        }
        do {
            let entry = try cache.store(uri: uri, file: location, expectedSize: length, etag: current.etag, lastModified: current.lastModified,
                                        control: current.control)
            setStatus(CacheStatus(state: .stored, path: cache.path(of: entry)))
        } catch {
            setStatus(CacheStatus(state: .discarded, reason: error.description))
        }
    }

    // MARK: Helpers

    /// The downloadbuffer's `temp-location`, nil before it opened its file.
    private func partialLocation() -> String? {
        guard let element = context?.download.buffer else { return nil }
        return String(takingGLibString: CGStreamer_get_string(UnsafeMutableRawPointer(element), "temp-location"))
    }

    /// The size of a complete download of an encoded body (libsoup decoded it: the file's own
    /// size, once the downloadbuffer said it is complete), nil otherwise.
    private static func decodedSize(_ download: CacheDownload.State, location: String) -> Int64? {
        guard download.encoding != nil, download.completeMessage || download.endOfStream else { return nil }
        var info = stat()
        guard stat(location, &info) == 0, info.st_size > 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Nil when complete, else why not. An encoded body (``CacheDownload/State/encoding``) has
    /// no length to compare with: it is complete when the downloadbuffer says so or the stream
    /// ended (end of stream), and its one range starts at 0.
    private static func completeness(_ download: CacheDownload.State, element: UnsafeMutablePointer<GstElement>?, location: String?) -> String? {
        guard let location else { return "no download buffer (the server gave no size)" }
        if let encoding = download.encoding {
            if let element, let ranges = BufferingQuery.ask(element, format: GST_FORMAT_BYTES)?.ranges,
               ranges.count > 1 || (ranges.first?.start ?? 0) > 0 { return "disjoint download (a seek beyond the downloaded data)" }
            return download.completeMessage || download.endOfStream ? nil : "download not complete (sent with Content-Encoding: \(encoding))"
        }
        guard let length = download.contentLength, length > 0 else { return "the server gave no length" }
        if let element, let ranges = BufferingQuery.ask(element, format: GST_FORMAT_BYTES)?.ranges {
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
}
