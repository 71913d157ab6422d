import Glibc

// Text helpers that stand in for Foundation's `NSString` methods, so the shipped gstplay links
// FoundationEssentials only (no Foundation, no ICU: docs/BENCHMARKS.md). Each one
// gives the same result as the Foundation call it replaces (gstplayTests/TextHelperTests).
// Pure; any thread. `package`: the CLI's and this target's helpers, not API.

extension StringProtocol {
    /// `self` without leading and trailing spaces and tabs: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (tab, U+0020, U+00A0, U+1680, U+2000–U+200B,
    /// U+202F, U+205F, U+3000), scalar by scalar like Foundation.
    package func trimmingWhitespace() -> String {
        trimmingScalars(where: Self.isWhitespace)
    }

    /// `self` without leading and trailing whitespace and line breaks: Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` (the above plus U+000A–U+000D,
    /// U+0085, U+2028, U+2029).
    package func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    /// `self` padded with spaces, or cut, to `length` UTF-16 code units: Foundation's
    /// `padding(toLength: length, withPad: " ", startingAt: 0)`.
    package func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units >= length { return String(decoding: utf16.prefix(length), as: UTF16.self) }
        return String(self) + String(repeating: " ", count: length - units)
    }

    /// The first character upper-cased, the rest lower-cased: Foundation's `capitalized` for a
    /// single word (`audio` → `Audio`).
    package var capitalizedWord: String {
        prefix(1).uppercased() + dropFirst().lowercased()
    }

    /// Whether `other` occurs in `self`, ignoring case (both sides lower-cased; stands in for
    /// `localizedCaseInsensitiveContains`).
    package func containsIgnoringCase(_ other: some StringProtocol) -> Bool {
        lowercased().contains(other.lowercased())
    }

    /// Every `scalar` replaced by `replacement`, as Foundation's `replacingOccurrences(of:with:)`
    /// replaces a line break: also the `\n` of a `\r\n` (which `String.replacing` does not
    /// find, comparing whole characters), but not one followed by a combining mark (Unicode
    /// `M*`), which Foundation takes as one composed character with it.
    package func replacingScalar(_ scalar: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        var scalars = unicodeScalars.makeIterator()
        var next = scalars.next()
        while let each = next {
            next = scalars.next()
            if each == scalar && !(next.map(Self.isCombiningMark) ?? false) {
                result += replacement
            } else {
                result.unicodeScalars.append(each)
            }
        }
        return result
    }

    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}

/// `printf` formatting of one number (`vsnprintf`, the C locale gstplay runs in): stands in
/// for Foundation's `String(format:)`, which formats doubles the same way.
package enum CFormat {
    /// `value` formatted by the printf conversion `format` (e.g. `%.1f`, `%.3g`).
    package static func number(_ format: String, _ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `value` rounded to a whole number (half away from zero, like `Int(value.rounded())`)
    /// without `Int(Double)`'s trap: NaN, infinities and values beyond `Int64` print as
    /// `printf("%.0f")` does (`nan`, `inf`, all digits).
    package static func whole(_ value: Double) -> String {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded.magnitude < 9e18 else { return number("%.0f", rounded) }
        return String(Int64(rounded))
    }
}
