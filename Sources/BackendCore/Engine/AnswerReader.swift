import CGStreamer

/// Sends one request over a connection ``ConnectionProbe`` made and reads the head of the answer
/// (up to the blank line after the headers, ``HTTPAnswerCheck/headLimit`` bytes, the end of the
/// connection or the socket's I/O timeout), then judges it with ``HTTPAnswerCheck``.
///
/// **Thread:** started and completed on the loop thread (GIO's async calls return to the
/// thread-default `GMainContext` they were started from). The reader keeps itself alive through
/// the pointer each pending call holds, and unrefs the connection (closing it) when done.
final class AnswerReader {
    private let connection: UnsafeMutablePointer<GSocketConnection>
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private let request: UnsafeMutableRawBufferPointer
    private let completion: (String?) -> Void
    private var answer: [UInt8] = []
    /// When reading stops even if the head is still trickling in (µs, `g_get_monotonic_time`).
    private let deadline: gint64
    private let chunk = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 1)

    private init(connection: UnsafeMutablePointer<GSocketConnection>, request: [UInt8], cancellable: UnsafeMutablePointer<GCancellable>,
                 seconds: UInt32, completion: @escaping (String?) -> Void) {
        self.connection = connection
        deadline = g_get_monotonic_time() + gint64(seconds) * 1_000_000
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: request.count, alignment: 1)
        request.withUnsafeBytes { copy.copyMemory(from: $0) }
        self.request = copy
        self.cancellable = cancellable
        self.completion = completion
        g_object_ref(UnsafeMutableRawPointer(cancellable))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(connection))   // closes it
        g_object_unref(UnsafeMutableRawPointer(cancellable))
        chunk.deallocate()
        request.deallocate()
    }

    /// Takes `connection` (its reference) and starts: writes `request`, reads the head for at
    /// most `seconds` (each read also ends at the socket's own I/O timeout), calls `completion`
    /// with what is wrong with it (nil: nothing, or no answer at all), never after `cancellable`
    /// was cancelled.
    static func start(connection: UnsafeMutablePointer<GSocketConnection>, request: [UInt8], cancellable: UnsafeMutablePointer<GCancellable>,
                      seconds: UInt32, completion: @escaping (String?) -> Void) {
        let reader = AnswerReader(connection: connection, request: request, cancellable: cancellable, seconds: seconds, completion: completion)
        let stream = g_io_stream_get_output_stream(reader.ioStream)
        // GIO copies nothing: the bytes live in the reader, which the pending call keeps alive.
        g_output_stream_write_all_async(stream, reader.request.baseAddress, gsize(reader.request.count), G_PRIORITY_DEFAULT, cancellable, { source, result, data in
            guard let data else { return }
            let reader = Unmanaged<AnswerReader>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let written = g_output_stream_write_all_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GOutputStream.self),
                                                           result, nil, &error)
            if error != nil { g_error_free(error) }
            if written == 0 { reader.finish(ended: true) } else { reader.readMore() }
        }, Unmanaged.passRetained(reader).toOpaque())
    }

    /// A minimal `GET` for `path?query` with `Host`, asking for the plain body and no keep-alive.
    static func request(path: String, query: String?, host: String) -> [UInt8] {
        let target = (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
        return Array("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: gstplay\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n".utf8)
    }

    private var ioStream: UnsafeMutablePointer<GIOStream> {
        UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
    }

    /// Reads the next chunk, unless the head is complete or over the limit.
    private func readMore() {
        if HTTPAnswerCheck.headEnd(in: answer) != nil || answer.count > HTTPAnswerCheck.headLimit || g_get_monotonic_time() > deadline {
            return finish(ended: false)
        }
        let stream = g_io_stream_get_input_stream(ioStream)
        g_input_stream_read_async(stream, chunk, 4096, G_PRIORITY_DEFAULT, cancellable, { source, result, data in
            guard let data else { return }
            let reader = Unmanaged<AnswerReader>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let count = g_input_stream_read_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self), result, &error)
            if error != nil { g_error_free(error) }   // timed out, reset, cancelled: judge what came
            guard count > 0 else { return reader.finish(ended: true) }
            reader.answer.append(contentsOf: UnsafeRawBufferPointer(start: reader.chunk, count: count))
            reader.readMore()
        }, Unmanaged.passRetained(self).toOpaque())
    }

    private func finish(ended: Bool) {
        guard g_cancellable_is_cancelled(cancellable) == 0 else { return }
        completion(HTTPAnswerCheck.problem(in: answer, ended: ended))
    }
}

/// What makes the head of an HTTP answer one libsoup 3 cannot parse, in words for the user.
/// Pure: tested on bytes.
enum HTTPAnswerCheck {
    /// The most head bytes read (libsoup 3.2 refuses a head over 64 KiB: `HEADER_SIZE_LIMIT`).
    static let headLimit = 64 * 1024

    /// The index just past the blank line that ends the head (`\r\n\r\n` or `\n\n`), if present.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// Why `bytes` (the start of an answer; `ended`: nothing more came) is not a valid HTTP/1.x
    /// head, or nil when it is one, or when nothing came at all (a silent or closing server: the
    /// caller's "no data … or the connection was lost" fits).
    static func problem(in bytes: [UInt8], ended: Bool) -> String? {
        guard !bytes.isEmpty else { return nil }
        if bytes.starts(with: Array("ICY ".utf8)) { return nil }   // SHOUTcast's status line: libsoup takes it
        let prefix = Array("HTTP/".utf8)
        let start = Array(bytes.prefix(prefix.count))
        guard start == Array(prefix.prefix(start.count)) else {
            return "it does not begin with an HTTP status line: an HTTP/0.9 or non-HTTP answer"
        }
        guard let end = headEnd(in: bytes) else {
            if bytes.count > headLimit { return "its headers do not end within \(headLimit / 1024) KiB" }
            return ended ? "it ended within its headers" : nil
        }
        let head = bytes[..<end]
        if head.contains(0) { return "a NUL byte in its headers" }
        let lines = String(decoding: head, as: UTF8.self).split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
        guard let statusLine = lines.first, isStatusLine(statusLine) else {
            return "its status line '\(printable(lines.first ?? ""))' is not HTTP/1.x"
        }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            guard line[..<colon].lowercased() == "content-length" else { continue }
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let value = String(line[line.index(after: colon)...].drop(while: blank).reversed().drop(while: blank).reversed())
            if value.isEmpty || !value.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return "Content-Length '\(printable(Substring(value)))' is not a byte count"
            }
        }
        return nil
    }

    /// `HTTP/1.0 200 …` or `HTTP/1.1 404`: the version, a space and three digits.
    private static func isStatusLine(_ line: Substring) -> Bool {
        let characters = Array(line.utf8)
        guard characters.count >= 12, line.hasPrefix("HTTP/1."), characters[7] == 0x30 || characters[7] == 0x31,
              characters[8] == 0x20 else { return false }
        return characters[9...11].allSatisfy { (0x30...0x39).contains($0) }
    }

    /// At most 40 characters of `text`, control characters as `?`.
    private static func printable(_ text: Substring) -> String {
        String(text.prefix(40).map { $0.isASCII && ($0.asciiValue ?? 0) < 0x20 ? "?" : $0 })
    }
}
