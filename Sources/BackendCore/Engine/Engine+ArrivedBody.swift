import CGStreamer
import Glibc

/// The bytes of a body that stopped short of its `Content-Length`, kept to be played
/// (``Engine/playArrivedBody(after:)``).
struct ArrivedBody {
    /// A second name of the download file (a hard link): it outlives the `downloadbuffer`,
    /// which deletes its own name when it closes.
    let path: String
    /// Bytes the download buffer held, from the first.
    let received: Int
    /// Bytes the load's first answer announced.
    let announced: Int
    /// The error the load would have ended with (``Engine/namingShortBody(_:received:announced:)``):
    /// said instead when what arrived does not play to its end.
    let error: PlayerError
}

/// Playing what arrived when a server sends fewer bytes than its `Content-Length` announced and
/// then stalls or closes (loop thread).
///
/// In GStreamer such a body is not an end of stream: libsoup fails the read ("Connection
/// terminated unexpectedly", or the socket timeout of a silent server), souphttpsrc's resume with
/// a Range request is answered from the start (or not at all), and the source fails; playbin
/// did not play on after that ERROR (docs/RELIABILITY.md §17), so the bytes already in the
/// download buffer never played.
/// The download buffer's file holds them, though: it gets a second name before the pipeline goes
/// to NULL (which flushes and closes the file), and the item is loaded again from that file —
/// the URI the player reports stays the server's. At its end of stream one warning says how
/// much of the announced body arrived; when the file does not play to its end, the load's own
/// error is reported instead.
extension Engine {
    /// Replaces the final failure `error` (after the reload once, ``retryAfterNetworkError(_:)``:
    /// a transient reset or stall gets the whole file again) by playing the bytes that arrived,
    /// when the download buffer holds fewer bytes than the first answer announced, in one piece
    /// from the first. At most once per item; false when the error must go on as
    /// before (true also when the kept file turned out short and the item failed here).
    func playArrivedBody(after error: PlayerError) -> Bool {
        guard arrivedBody == nil, error.kind == .network, error.element == "source",
              error.cause == .timedOut || error.cause == .cannotResume,
              let uri = facts.uri, let announced = facts.announcedSize,
              let (path, received) = linkDownloadFile(shorterThan: announced) else { return false }
        let named = namingShortBody(error, received: received, announced: announced)
        trace("short body: \(received) of \(announced) bytes, playing them from \(path)")
        let intent = playback.inputs.intent
        let target = playback.target
        let leftReady = playback.inputs.leftReady
        let position = hub.workingSnapshot.position
        let startSeek = playback.inputs.prerolled ? nil : seeks.pending   // a start position not reached yet
        let retries = statistics.current.networkRetries
        featuresFinished()
        pipeline?.setState(GST_STATE_NULL)   // the downloadbuffer flushes and closes its file
        var written = stat()
        guard stat(path, &written) == 0, written.st_size >= received, let fileURI = FileURI.uri(forPath: path) else {
            unlink(path)
            failUnlessFeatureActs(named)   // named before NULL: the source no longer answers
            return true
        }
        load(.success(uri), original: uri, playing: fileURI)
        arrivedBody = ArrivedBody(path: path, received: received, announced: announced, error: named)
        armOpenWatchdog()                     // a local file's limit
        facts.networkRetriesLeft = 0
        statistics.current.networkRetries = retries
        playback.inputs.intent = intent
        playback.inputs.leftReady = leftReady
        playback.target = target
        if let position, position > .zero { seeks.pending = (.absolute(position), .accurate) } else { seeks.pending = startSeek }
        return true
    }

    /// The warning said at the end of the bytes that arrived; nil when they are not playing.
    func arrivedBodyEnded() -> PlayerError? {
        guard let body = arrivedBody else { return nil }
        return PlayerError(kind: .network,
                           message: "the server sent \(body.received) of the \(body.announced) bytes it announced (Content-Length): played what arrived",
                           uri: facts.uri, cause: body.error.cause)
    }

    /// The load's own short-body error when the bytes that arrived ended before their duration
    /// (`cut`: the sinks rendered less, or the position stopped over 1 s short): a body cut by a
    /// stall or a reset, not a complete file under a too large `Content-Length`. Nil otherwise.
    func arrivedBodyCut(_ cut: Bool) -> PlayerError? {
        guard cut, let body = arrivedBody else { return nil }
        trace("the bytes that arrived ended before their duration")
        return body.error
    }

    /// The load's own short-body error, for an error of the bytes that arrived (they could not
    /// be played to their end); nil when they are not playing.
    func arrivedBodyFailed(_ error: PlayerError) -> PlayerError? {
        guard let body = arrivedBody else { return nil }
        trace("the bytes that arrived did not play: \(error.message)")
        return body.error
    }

    /// Deletes the kept bytes (a new load, teardown).
    func forgetArrivedBody() {
        guard let body = arrivedBody else { return }
        arrivedBody = nil
        unlink(body.path)
    }

    /// A hard link to the current `downloadbuffer`'s file, next to it, and the bytes it holds,
    /// when the buffer holds the body in one piece from its first byte and fewer bytes than
    /// `announced`; nil otherwise (no download buffering, nothing or everything held, a hole
    /// after a seek, or the link failed). The count is the buffer's, not the source's byte
    /// position: the source may have been restarted (its position back at 0) before the bus
    /// delivers its error.
    private func linkDownloadFile(shorterThan announced: Int) -> (path: String, received: Int)? {
        guard let playbin = pipeline?.element, let buffer = Self.downloadBuffer(in: playbin) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(buffer)) }
        let ranges = BufferingQuery.ask(buffer, format: GST_FORMAT_BYTES)?.ranges
        trace("download buffer holds \(ranges.map { String(describing: $0) } ?? "nothing it says") of \(announced) announced bytes")
        guard let ranges, ranges.count == 1, ranges[0].start == 0, ranges[0].stop > 0, ranges[0].stop < announced,
              let location = String(takingGLibString: CGStreamer_get_string(UnsafeMutableRawPointer(buffer), "temp-location"))
        else { return nil }
        let path = location + "-arrived"
        unlink(path)
        return link(location, path) == 0 ? (path, Int(ranges[0].stop)) : nil
    }

    /// The `downloadbuffer` inside `bin` (a new reference), nil when there is none.
    private static func downloadBuffer(in bin: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement>? {
        guard let iterator = gst_bin_iterate_recurse(CGStreamer_as_bin(UnsafeMutableRawPointer(bin))) else { return nil }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        defer { g_value_unset(&value) }
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            defer { g_value_reset(&value) }
            guard let child = g_value_get_object(&value), let factory = gst_element_get_factory(CGStreamer_as_element(child)),
                  String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory)))) == "downloadbuffer"
            else { continue }
            _ = gst_object_ref(child)
            return CGStreamer_as_element(child)
        }
        return nil
    }
}
