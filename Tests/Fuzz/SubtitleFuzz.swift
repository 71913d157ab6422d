// Fuzz target `subtitle`: the text of subtitle cues. GStreamer parses .srt/.vtt files itself
// (`subparse` behind playbin's `suburi`) and hands each cue to the Backend as pango markup in a
// `text/x-raw` buffer; what the project parses is that markup (`CueText.plain(fromMarkup:)`,
// Sources/BackendTracks/SubtitleCueSink.swift), whose result reaches the terminal and JSON.
//
// Invariants:
//  1. The plain text never ends in a newline, carriage return or NUL, and is never longer than
//     the markup (tags are removed, entities get shorter).
//  2. Round trip: escaping any text as markup (`&`, `<`, `>` as entities) and reading it back
//     gives the text (less trailing newlines).
//  3. Text without `<`, `>` or `&` passes through unchanged (less trailing newlines).

@testable import BackendTracks
import Backend

/// The `subtitle` fuzz target (invariants in the header). Pure; any thread.
enum SubtitleFuzz {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let plain = CueText.plain(fromMarkup: text)
        try check(!(plain.last.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\0" } ?? false),
                  "plain text ends in a line break or NUL: \(plain.debugDescription) from \(text.debugDescription)")
        try check(plain.unicodeScalars.count <= text.unicodeScalars.count,
                  "plain text is longer than its markup: \(plain.debugDescription) from \(text.debugDescription)")

        let escaped = text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            default: String(scalar)
            }
        }.joined()
        let expected = trailingBreaksDropped(text)
        let back = CueText.plain(fromMarkup: escaped)
        try check(back == expected, "escape + plain is not the text: \(text.debugDescription) → \(escaped.debugDescription) → \(back.debugDescription)")
        if !text.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" || $0 == "&" }) {
            try check(plain == expected, "plain text changed text without markup: \(text.debugDescription) → \(plain.debugDescription)")
        }
    }

    private static func trailingBreaksDropped(_ text: String) -> String {
        var scalars = text.unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\0" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
