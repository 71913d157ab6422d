import CSoup

extension HTTPResponder {
    /// Answers with the file at `path` (`g_mapped_file_new`, appended to the body as `GBytes`,
    /// so libsoup answers a `Range` request with 206 and only those bytes); 404 when it cannot
    /// be opened. Any thread.
    func respondFile(_ path: String, contentType: String, head: Bool) {
        respondRaw { message in
            var error: UnsafeMutablePointer<GError>?
            guard let mapped = g_mapped_file_new(path, 0, &error) else {
                if let error { g_error_free(error) }
                HTTPResponder.apply(.text("404 not found\n", status: 404), to: message)
                return
            }
            let bytes = g_mapped_file_get_bytes(mapped)
            g_mapped_file_unref(mapped)
            soup_server_message_set_status(message, 200, nil)
            let headers = soup_server_message_get_response_headers(message)
            soup_message_headers_replace(headers, "Content-Type", contentType)
            soup_message_headers_replace(headers, "Accept-Ranges", "bytes")
            soup_message_body_append_bytes(soup_server_message_get_response_body(message), bytes)
            g_bytes_unref(bytes)
        }
    }
}
