// Fuzz target `console`: gstplay's console input — the line splitter, the text command
// parser, the `--json` request parser and the reply writer (Sources/gstplay: LineConsole,
// ConsoleCommand and the command parsers it registers, SeekArgument, JSONValue, JSONProtocol, Wire).
//
// Invariants (each can fail; see FuzzCorpusTests.testAViolationIsReported):
//  1. Splitting is independent of how the bytes arrive (one read or two), and no line holds a
//     newline or exceeds the limit.
//  2. Every rejected command has a message that is non-empty, one line, and short — the CLI
//     prints it as exactly one `error: …` line.
//  3. Every accepted command round-trips: its canonical text form parses back to the same
//     command (text and words form alike).
//  4. A line is JSON in `--json` mode exactly when it starts with `{`, `[` or `"`; text lines
//     parse as in the text console.
//  5. Re-serialising an accepted JSON text with the wire encoder (`Wire.line`) gives JSON we
//     parse back (serialisation is a fixed point after one round), and the re-serialised request
//     means the same.
//  6. Every reply is a single line of valid JSON.

import Backend
import Foundation
@testable import BackendControl
@testable import gstplay

/// Bytes per line before the splitter discards it (small, so the fuzzer reaches that path).
private let fuzzLineLimit = 512

/// The `console` fuzz target (invariants in the header). Pure; any thread.
enum ConsoleFuzz {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        for line in try splitLines(bytes) {
            try checkTextLine(line)
            try checkRequestLine(line)
        }
        // The whole input as one line too (the splitter drops anything after a newline).
        if bytes.count <= 4096 {
            let whole = String(decoding: bytes, as: UTF8.self)
            try checkTextLine(whole)
            try checkRequestLine(whole)
        }
    }
}

// MARK: 1. Line splitting

private func splitLines(_ bytes: [UInt8]) throws(InvariantViolation) -> [String] {
    func run(_ chunks: [ArraySlice<UInt8>]) -> [LineSplitter.Item] {
        var splitter = LineSplitter(maxLength: fuzzLineLimit)
        var items: [LineSplitter.Item] = []
        for chunk in chunks { items += splitter.feed(chunk) }
        return items + splitter.finish()
    }
    let whole = run([bytes[...]])
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let split = run([bytes[..<cut], bytes[cut...]])
    try check(whole == split, "line splitting depends on the read boundary (cut at \(cut)): \(whole) vs \(split)")
    var lines: [String] = []
    for item in whole {
        switch item {
        case .tooLong(let limit):
            try check(limit == fuzzLineLimit, "tooLong reports \(limit)")
        case .line(let line):
            try check(!line.contains("\n"), "a line contains a newline")
            try check(line.utf8.count <= fuzzLineLimit * 3, "a line of \(line.utf8.count) bytes passed a limit of \(fuzzLineLimit)")
            lines.append(line)
        }
    }
    return lines
}

// MARK: 2–4. Text commands

private func checkTextLine(_ line: String) throws(InvariantViolation) {
    switch ConsoleCommand.parse(line) {
    case .failure(let error):
        try checkMessage(error.message, input: line)
    case .success(let command):
        let text = canonicalText(command)
        let again = ConsoleCommand.parse(text)
        try check(same(again, command), "text round trip: '\(line)' → \(command) → '\(text)' → \(again)")
        let words = canonicalWords(command)
        let fromWords = ConsoleCommand.parse(words: words)
        try check(same(fromWords, command), "words round trip: '\(line)' → \(command) → \(words) → \(fromWords)")
    }
}

private func checkMessage(_ message: String, input: String) throws(InvariantViolation) {
    try check(!message.trimmingCharacters(in: .whitespaces).isEmpty, "empty error message for '\(input)'")
    try check(!message.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }), "multi-line error message for '\(input)': \(message)")
    try check(message.utf8.count <= 1024, "error message of \(message.utf8.count) bytes for input '\(input.prefix(80))'")
}

// MARK: 4–6. JSON requests

private func checkRequestLine(_ line: String) throws(InvariantViolation) {
    let request = JSONProtocol.parseRequest(line)
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    let isJSON = trimmed.first.map { $0 == "{" || $0 == "[" || $0 == "\"" } ?? false
    if isJSON {
        try check(request.id != .absent, "a JSON line got no request id: '\(line)'")
    } else {
        try check(request.id == .absent, "a text line got a request id: '\(line)'")
        try check(request.command == ConsoleCommand.parse(line), "text line parsed differently in JSON mode: '\(line)'")
    }
    if case .failure(let error) = request.command { try checkMessage(error.message, input: line) }

    // Every reply is one line of valid JSON.
    let errorText: String? = { if case .failure(let e) = request.command { return e.message } else { return nil } }()
    let reply = Reply(id: request.id, error: errorText, data: .help(commands: [line], keys: [])).line
    try check(!reply.contains("\n") && !reply.contains("\r"), "reply spans lines: \(reply)")
    try check((try? JSONSerialization.jsonObject(with: Data(reply.utf8))) is [String: Any], "reply is not a JSON object: \(reply)")
    try check((try? JSONValue.parse(reply)) != nil, "our parser rejects our reply: \(reply)")

    guard isJSON, let value = try? JSONValue.parse(trimmed) else { return }
    let once = Wire.line(value)
    guard let reparsed = try? JSONValue.parse(once) else { throw InvariantViolation(description: "serialised JSON does not parse: '\(line)' → '\(once)'") }
    let twice = Wire.line(reparsed)
    guard let third = try? JSONValue.parse(twice) else { throw InvariantViolation(description: "serialised JSON does not parse: '\(twice)'") }
    try check(Wire.line(third) == twice, "serialisation is not a fixed point: '\(once)' → '\(twice)' → '\(Wire.line(third))'")

    // The re-serialised request means the same (numbers may change spelling, not meaning).
    let again = JSONProtocol.parseRequest(once)
    try check(again.command == request.command || sameMeaning(again.command, request.command),
          "re-serialised request changed meaning: '\(line)' → '\(once)': \(request.command) vs \(again.command)")
    try check(idText(again.id) == idText(request.id), "re-serialised request changed its id: '\(line)' → '\(once)'")
}

private func idText(_ id: RequestID) -> String {
    switch id {
    case .absent: return "absent"
    case .null: return "null"
    case .int(let value): return String(value)
    case .double(let value): return "\(value)"
    case .string(let value): return Wire.line(value)
    }
}

/// Writing decoded values back (only the fuzzer needs this: the CLI never writes a `JSONValue`).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(Finite(wrappedValue: value))
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

private func sameMeaning(_ a: Result<ConsoleCommand, ConsoleError>, _ b: Result<ConsoleCommand, ConsoleError>) -> Bool {
    switch (a, b) {
    case (.success(let x), _): return same(b, x)
    case (.failure, .failure): return true // both rejected; the wording may name the re-spelled number
    default: return false
    }
}

// MARK: Canonical forms

/// A text line that names `command` (the console's own syntax).
private func canonicalText(_ command: ConsoleCommand) -> String {
    canonicalWords(command).joined(separator: " ")
}

private func canonicalWords(_ command: ConsoleCommand) -> [String] {
    switch command {
    case .play: return ["play"]
    case .pause: return ["pause"]
    case .toggle: return ["toggle"]
    case .stop: return ["stop"]
    case .status: return ["status"]
    case .stats: return ["stats"]
    case .next: return ["next"]
    case .prev: return ["prev"]
    case .help: return ["help"]
    case .quit: return ["quit"]
    case .seek(.absolute(let time)): return ["seek", exactSeconds(time.nanoseconds.magnitude)]
    case .seek(.relative(let time)): return ["seek", (time.nanoseconds < 0 ? "-" : "+") + exactSeconds(time.nanoseconds.magnitude)]
    case .seek(.fraction(let fraction)): return ["seek", plainDecimal(fraction * 100) + "%"]
    case .rate(let rate): return ["rate", plainDecimal(rate)]
    case .volume(let volume): return ["volume", plainDecimal(volume)]
    case .mute(nil): return ["mute"]
    case .mute(let on?): return ["mute", on ? "on" : "off"]
    case .load(let location): return ["load", location]
    case .variants: return ["variants"]
    case .variant(nil): return ["variant", "auto"]
    case .variant(let index?): return ["variant", String(index)]
    case .snapshot(let path, let osd): return ["snapshot"] + (osd ? ["--osd"] : []) + (path.map { [$0] } ?? [])
    case .cover(nil): return ["cover"]
    case .cover(let path?): return ["cover", path]
    case .queue(.list): return ["playlist"]
    case .queue(.save(let path)): return ["playlist", "save", path]
    case .queue(.jump(let index)): return ["jump", String(index)]
    case .queue(.remove(let index)): return ["remove", String(index)]
    case .queue(.move(let from, let to)): return ["move", String(from), String(to)]
    case .queue(.clear): return ["clear"]
    case .queue(.shuffle(let on)): return ["shuffle", on ? "on" : "off"]
    case .queue(.loop(let mode)): return ["loop", mode.rawValue]
    case .tracks: return ["tracks"]
    case .track(let kind, nil): return ["track", kind.rawValue, "none"]
    case .track(let kind, let index?): return ["track", kind.rawValue, String(index)]
    case .subFile(let path): return ["sub-file", path]
    case .subOffset(let milliseconds): return ["sub-offset", String(milliseconds)]
    case .audioOffset(let milliseconds): return ["audio-offset", String(milliseconds)]
    case .subVisibility(nil): return ["sub-visibility", "toggle"]
    case .subVisibility(let visible?): return ["sub-visibility", visible ? "yes" : "no"]
    case .osd(nil): return ["osd"]
    case .osd(let text?): return ["osd", text]
    case .chapters: return ["chapters"]
    case .chapter(.index(let index)): return ["chapter", String(index)]
    case .chapter(.next): return ["chapter", "next"]
    case .chapter(.previous): return ["chapter", "prev"]
    case .renderers: return ["renderers"]
    case .cast(.off): return ["cast", "off"]
    case .cast(.index(let index)): return ["cast", String(index)]
    case .cast(.target(let target)): return ["cast", target.text]
    case .abLoop(.cycle): return ["ab-loop"]
    case .abLoop(.both(nil, nil)): return ["ab-loop", "off"]
    case .abLoop(.both(let a, let b)): return ["ab-loop", loopPoint(a), loopPoint(b)]
    case .abLoop(.a(let time)): return ["ab-loop-a", loopPoint(time)]
    case .abLoop(.b(let time)): return ["ab-loop-b", loopPoint(time)]
    case .abLoop(.count(let count)): return ["ab-loop-count", count.map(String.init) ?? "inf"]
    case .frameStep(let forward): return [forward ? "frame-step" : "frame-back-step"]
    case .cycle(let target): return ["cycle", target.rawValue]
    case .add(let target, let amount): return ["add", target.rawValue, plainDecimal(amount)]
    case .keys: return ["keys"]
    }
}

/// An A-B loop point as the console takes it: exact seconds, or `no`.
private func loopPoint(_ time: MediaTime?) -> String {
    time.map { exactSeconds($0.nanoseconds.magnitude) } ?? "no"
}

/// Nanoseconds as an exact decimal number of seconds (`1.250000000`).
private func exactSeconds(_ nanoseconds: UInt64) -> String {
    let fraction = String(nanoseconds % 1_000_000_000)
    return "\(nanoseconds / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
}

/// The shortest decimal that reads back as `value`, without an exponent (the console's numbers
/// have none): Swift's `description` expanded.
private func plainDecimal(_ value: Double) -> String {
    precondition(value.isFinite)
    let text = value.magnitude.description
    let sign = value < 0 ? "-" : ""
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return sign + text }
    let exponent = Int(text[text.index(after: e)...])!
    var digits = String(text[..<e])
    var point = digits.firstIndex(of: ".").map { digits.distance(from: digits.startIndex, to: $0) } ?? digits.count
    digits.removeAll { $0 == "." }
    point += exponent
    if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
    let index = digits.index(digits.startIndex, offsetBy: point)
    return sign + digits[..<index] + "." + digits[index...]
}

/// Whether `result` is `command`, with times equal to within rounding (a decimal typed by a
/// user goes through `Double` to nanoseconds; its exact re-spelling may land a few ns away
/// beyond 2^53 ns) and fractions equal to within 1e-12.
private func same(_ result: Result<ConsoleCommand, ConsoleError>, _ command: ConsoleCommand) -> Bool {
    guard case .success(let other) = result else { return false }
    func close(_ a: MediaTime, _ b: MediaTime) -> Bool {
        let difference = a.nanoseconds.subtractingReportingOverflow(b.nanoseconds)
        guard !difference.overflow else { return false }
        return difference.partialValue.magnitude <= 1 + max(a.nanoseconds.magnitude, b.nanoseconds.magnitude) >> 50
    }
    switch (other, command) {
    case (.seek(.absolute(let a)), .seek(.absolute(let b))): return close(a, b)
    case (.seek(.relative(let a)), .seek(.relative(let b))): return close(a, b)
    case (.seek(.fraction(let a)), .seek(.fraction(let b))): return abs(a - b) <= 1e-12
    default: return other == command
    }
}
