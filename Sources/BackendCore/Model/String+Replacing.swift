import CGStreamer

extension String {
    /// `self` with every occurrence of `target` replaced (`g_string_replace`: no Foundation and no
    /// regex library in the Backend). A byte match of UTF-8 is a match of Unicode scalars, not of
    /// Characters: in markup `&lt;` followed by a combining mark is still the entity (as
    /// Characters its `;` and the mark are one grapheme and would not match). Text after an
    /// embedded NUL is kept as it is, unreplaced.
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var bytes = Array(utf8)
        let text = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: gchar.self) { g_string_new_len($0.baseAddress, gssize($0.count)) }
        }
        guard let text else { return self }
        defer { g_string_free(text, 1) }
        guard g_string_replace(text, target, replacement, 0) > 0 else { return self }
        bytes = Array(UnsafeRawBufferPointer(start: text.pointee.str, count: Int(text.pointee.len)))
        return String(decoding: bytes, as: UTF8.self)
    }
}
