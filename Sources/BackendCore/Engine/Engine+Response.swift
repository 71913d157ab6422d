import CGStreamer

/// What the last HTTP response's headers said about its body, from souphttpsrc's `http-headers`
/// element message (``Engine/absorbResponseHead(_:)``).
struct ResponseHead {
    /// Why the head is not valid HTTP although libsoup took it (a `Content-Length` that is not a
    /// byte count: libsoup 3.2 then sets a negative length on its body stream, GObject warns, and
    /// the read fails as the generic "Internal data stream error"), nil when it is.
    var problem: String?
}

extension ResponseHead {
    /// The size of the whole body the first answer of a load announced: the total of a
    /// `Content-Range` (`bytes 0-99/1000`), else the `Content-Length` of a 200; nil when neither.
    static func announcedSize(status: Int?, contentLength: String?, contentRange: String?) -> Int? {
        if let range = contentRange, let slash = range.lastIndex(of: "/") { return Int(range[range.index(after: slash)...]) }
        guard status == 200, let length = contentLength else { return nil }
        return Int(length)
    }
}

/// Naming answers that are not HTTP, and bodies that stopped short of their `Content-Length`
/// (loop thread).
extension Engine {
    /// Keeps what the `http-headers` message of a (non-redirect) response tells about its head.
    func absorbResponseHead(_ structure: UnsafePointer<GstStructure>) {
        facts.response = ResponseHead()
        guard let value = gst_structure_get_value(structure, "response-headers"),
              let headers = gst_value_get_structure(value) else { return }
        var fields: [String: String] = [:]
        for index in 0..<gst_structure_n_fields(headers) {
            guard let name = gst_structure_nth_field_name(headers, UInt32(index)),
                  let text = gst_structure_get_string(headers, name) else { continue }
            fields[String(cString: name).lowercased()] = String(cString: text)
        }
        if let length = fields["content-length"] {
            let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8)
            facts.response.problem = HTTPAnswerCheck.problem(in: head, ended: true)
        }
        // The first answer's: a refused resume (a 200 to a Range request) announces the file again
        // from 0. An encoded body's length is not comparable (libsoup counts the decoded bytes).
        if facts.announcedSize == nil, (fields["content-encoding"] ?? "identity").lowercased() == "identity" {
            facts.announcedSize = ResponseHead.announcedSize(status: facts.lastHTTPStatus, contentLength: fields["content-length"],
                                                             contentRange: fields["content-range"])
        }
    }

    /// The final error for a failure of a response whose head was not valid HTTP
    /// (``ResponseHead/problem``), nil otherwise.
    func invalidResponse(_ error: PlayerError) -> PlayerError? {
        guard error.kind == .network, error.element == "source", let problem = facts.response.problem else { return nil }
        var named = error
        named.message = "the server's answer is not valid HTTP (\(problem))"
        named.cause = .invalidResponse
        return named
    }

    /// How many bytes of the body the source has delivered (a byte position query on playbin's
    /// source) and how many the load's first answer announced (``MediaFacts/announcedSize``),
    /// when it delivered some but fewer than announced.
    func shortBody() -> (received: Int, announced: Int)? {
        guard let announced = facts.announcedSize, let playbin = pipeline?.object,
              let source = CGStreamer_get_object(playbin, "source") else { return nil }
        defer { gst_object_unref(source) }
        var received: gint64 = 0
        guard gst_element_query_position(CGStreamer_as_element(source), GST_FORMAT_BYTES, &received) != 0,
              received > 0, announced > received else { return nil }
        return (received, announced)
    }

    /// `error` (a timeout or a refused resume of the source) with what the body did, when it
    /// stopped short of what the server announced: "the server stopped after R of the N bytes it
    /// announced (Content-Length): …". A server whose `Content-Length` is larger than the file it sends
    /// ends this way (libsoup waits for the rest, then the resume is refused or times out).
    func namingShortBody(_ error: PlayerError) -> PlayerError {
        guard let (received, announced) = shortBody() else { return error }
        return namingShortBody(error, received: received, announced: announced)
    }

    /// `error` (a timeout or a refused resume of the source) named for a body that stopped after
    /// `received` of the `announced` bytes; `error` itself for any other error.
    func namingShortBody(_ error: PlayerError, received: Int, announced: Int) -> PlayerError {
        guard error.kind == .network, error.element == "source", error.cause == .timedOut || error.cause == .cannotResume else { return error }
        var named = error
        named.message = "the server stopped after \(received) of the \(announced) bytes it announced (Content-Length): \(error.message)"
        return named
    }
}
