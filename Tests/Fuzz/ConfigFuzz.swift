// Fuzz target `config`: gstplay.conf in mpv.conf syntax (Sources/BackendControl/Config/ConfigFile.swift).
//
// Invariants:
//  1. Parsing never crashes; it gives a document or one `FILE:LINE:` failure with a line number
//     within the text.
//  2. Every option name is non-empty, without blanks, `=`, `#` or a leading `--`; no value holds
//     a line break; line numbers are within the text and rise through the top options; no
//     profile is called `default` or has an empty name.
//  3. The top options written back (`name="value"`, or `name` alone) parse to the same names and
//     values.

import BackendControl
@testable import gstplay

/// The `config` fuzz target (invariants in the header). Pure.
enum ConfigFuzz {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lineCount = ConfigFile.lines(of: text).count
        let document: ConfigFile.Document
        do {
            document = try ConfigFile.parse(text, file: "fuzz.conf")
        } catch {
            try check((1...lineCount).contains(error.line), "failure at line \(error.line) of \(lineCount): \(error.description)")
            return
        }
        var previous = 0
        for entry in document.top {
            try checkEntry(entry, lineCount: lineCount)
            try check(entry.line > previous, "line numbers do not rise: \(entry.line) after \(previous)")
            previous = entry.line
        }
        for (name, entries) in document.profiles {
            try check(!name.isEmpty && name != "default", "a profile named '\(name)'")
            for entry in entries { try checkEntry(entry, lineCount: lineCount) }
        }
        let quotable = document.top.filter { !($0.value ?? "").contains("\"") }
        let written = quotable.map { entry in entry.value.map { "\(entry.name)=\"\($0)\"" } ?? entry.name }.joined(separator: "\n")
        let again: ConfigFile.Document
        do { again = try ConfigFile.parse(written, file: "again.conf") } catch {
            throw InvariantViolation(description: "the written options do not parse: \(error.description)\n\(written)")
        }
        try check(again.top.map(\.name) == quotable.map(\.name) && again.top.map(\.value) == quotable.map(\.value),
                  "written and read again, the options changed:\n\(written)")
    }

    private static func checkEntry(_ entry: ConfigFile.Entry, lineCount: Int) throws(InvariantViolation) {
        try check(!entry.name.isEmpty, "an empty option name at line \(entry.line)")
        try check(!entry.name.contains { $0.isWhitespace || $0 == "=" || $0 == "#" }, "option name '\(entry.name)'")
        try check(!entry.name.hasPrefix("--"), "option name '\(entry.name)' keeps its --")
        try check(!(entry.value ?? "").contains { $0.isNewline }, "a value with a line break: \(entry.value ?? "")")
        try check((1...lineCount).contains(entry.line), "line \(entry.line) of \(lineCount)")
    }
}
