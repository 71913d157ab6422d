/// The one escaping function for untrusted text on its way to a terminal or a window manager:
/// file names and URIs, tags, window titles, subtitle cue text, GStreamer's
/// error and debug text, text a server sent. A file named `$'\e]0;PWNED\a\e[2J\rboom\nx.mp4'`
/// must not set the terminal's title, clear its screen or forge a line.
///
/// Every C0 control (U+0000–U+001F, also `\t`, `\n` and `\r`), DEL (U+007F) and every C1 control
/// (U+0080–U+009F, which reach the terminal as the UTF-8 bytes `C2 80`…`C2 9F`) becomes the
/// six visible characters `\u00XX` (lower-case hex): `ESC` → `\u001b`, a newline → `\u000a`.
/// That spelling is JSON's own escape, so escaping a JSON line keeps it valid JSON with the same
/// meaning (a JSON encoder already escapes C0 but writes DEL and C1 raw). A backslash stays as it
/// is (a name that literally contains `\u001b` looks like an escaped one; nothing reaches the
/// terminal raw either way). Invalid UTF-8 cannot reach a Swift `String`: the conversions from
/// C strings (`String(cString:)`, `String(decoding:as:)`) already replace each bad sequence by
/// U+FFFD, which is printable.
///
/// Pure; any thread.
public enum TerminalText {
    /// `text` with every C0 control, DEL and C1 control replaced by `\u00XX`.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { result.append(scalar); continue }
            result.append(contentsOf: "\\u00".unicodeScalars)
            result.append(hexDigits[Int(scalar.value >> 4)])
            result.append(hexDigits[Int(scalar.value & 0xF)])
        }
        return String(result)
    }

    /// True for the scalars ``escaped(_:)`` replaces: C0, DEL and C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)
}
