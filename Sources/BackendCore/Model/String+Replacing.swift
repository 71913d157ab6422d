extension String {
    /// `self` with every occurrence of `target` replaced, left to right, searching the UTF-8
    /// bytes (standard library only: no Foundation, and not `_StringProcessing`, whose code a
    /// plain play would otherwise map). A match of UTF-8 bytes is a match of Unicode scalars, not
    /// of Characters: in markup `&lt;` followed by a combining mark is still the entity (as
    /// Characters its `;` and the mark are one grapheme and would not match). Embedded NULs are
    /// text like any other.
    package func replacingAll(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.utf8)
        guard let head = pattern.first else { return self }
        let bytes = Array(utf8)
        var result: [UInt8] = []
        var index = 0, copied = 0
        while index + pattern.count <= bytes.count {
            guard bytes[index] == head, bytes[index..<index + pattern.count].elementsEqual(pattern) else {
                index += 1
                continue
            }
            result.append(contentsOf: bytes[copied..<index])
            result.append(contentsOf: replacement.utf8)
            index += pattern.count
            copied = index
        }
        guard copied > 0 else { return self }
        result.append(contentsOf: bytes[copied...])
        return String(decoding: result, as: UTF8.self)
    }
}
