// Fuzz target `mpv`: the control socket's request recognition — which lines are mpv IPC requests
// and how they parse (Sources/gstplay/Control/MpvRequest.swift), and the mpv reply writer (Wire/WireMpv).
//
// Invariants (each can fail):
//  1. Only a JSON object line whose `command` is an array naming an mpv command is taken as mpv's;
//     everything else is left to gstplay's parser (`parse` gives nil).
//  2. A rejected mpv request carries one of mpv's error strings.
//  3. Every reply, for any id and any parse result, is one line of valid JSON with `error` and
//     `request_id` keys (mpv clients match replies by `request_id`).
//  4. Parsing is deterministic and independent of surrounding blanks.
//  5. Numbers from the client never trap (a Double ≥ 2^63 through `Int(_:)` killed the player)
//     and go through the one checked conversion: an accepted observer id, `quit` code or index
//     is exactly the whole number the client sent, within its range; any other number is
//     `invalid parameter` (`1e19`, `-1e19`, `1.5`), and what is no number is not taken as one.
//  6. A `set_property`/`set` value decodes as every setter reads it (``MpvArgument``): an index
//     is a whole number from its lowest value, a number is finite, and a `speed` that passes
//     the rate rule (``PlaybackRate``) is finite, within −1…2 and at least 0.01 away from 0.

import Backend
import Foundation
@testable import BackendControl
@testable import gstplay

/// The `mpv` fuzz target (invariants in the header). Pure; any thread.
enum MpvFuzz {
    static let errors: Set<String> = ["invalid parameter", "property not found", "property unavailable",
                                      "unsupported format for accessing property", "error running command"]

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let line = String(decoding: bytes, as: UTF8.self)
        let parsed = MpvRequest.parse(line)
        if let parsed {
            let value = try? JSONValue.parse(line.trimmingCharacters(in: .whitespacesAndNewlines))
            guard case .array(let words)? = value?["command"], case .string(let name)? = words.first else {
                throw InvariantViolation(description: "taken as mpv's without a command array: '\(line)'")
            }
            try check(MpvRequest.names.contains(name), "taken as mpv's with command '\(name)'")
            if case .failure(let failure) = parsed.command {
                try check(errors.contains(failure.message), "not an mpv error string: '\(failure.message)'")
            }
            let data: MpvValue? = (try? parsed.command.get()).map { _ in .string(line) }
            let reply = WireMpv.Reply(id: parsed.id, error: (try? parsed.command.get()) == nil ? "invalid parameter" : nil, data: data).line
            try check(!reply.contains("\n"), "reply spans lines: \(reply)")
            guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
                throw InvariantViolation(description: "reply is not a JSON object: \(reply)")
            }
            try check(object["error"] is String && object.keys.contains("request_id"), "reply lacks error/request_id: \(reply)")
        }
        let again = MpvRequest.parse("  " + line + " \t")
        try check((again == nil) == (parsed == nil) && again?.command == parsed?.command,
                  "blanks around the line change the parse: '\(line)'")
        if let parsed { try checkNumbers(parsed.command, line) }
    }

    /// Invariants 5 and 6 for one parsed command.
    private static func checkNumbers(_ command: Result<MpvCommand, MpvFailure>, _ line: String) throws(InvariantViolation) {
        let words: [JSONValue] = {
            guard case .array(let words)? = (try? JSONValue.parse(line.trimmingCharacters(in: .whitespacesAndNewlines)))?["command"] else { return [] }
            return Array(words.dropFirst())
        }()
        switch command {
        case .success(.observe(let id, _, _)), .success(.unobserve(let id)):
            try check(words.first.map { exactly($0, is: id) } ?? false, "observer id \(id) is not the number sent: '\(line)'")
        case .success(.quit(let code?)):
            try check((0...255).contains(code) && (words.first.map { exactly($0, is: Int64(code)) } ?? false),
                      "quit code \(code) is not the number sent: '\(line)'")
        case .success(.setProperty(let name, let value)):
            try checkSetterValue(name, value)
        case .failure(let failure):
            try check(errors.contains(failure.message), "not an mpv error string: '\(failure.message)'")
        default:
            break
        }
    }

    /// Whether `word` (a JSON number or numeric text) is exactly the integer `value`.
    private static func exactly(_ word: JSONValue, is value: Int64) -> Bool {
        switch word {
        case .int(let number): return number == value
        case .double(let number): return Double(value) == number && Int64(exactly: number) == value
        case .string(let text):
            let trimmed = text.trimmingWhitespace()                   // as the decoder trims
            if let number = Int64(trimmed) { return number == value }
            return Double(trimmed).map { Int64(exactly: $0) == value } ?? false
        default: return false
        }
    }

    private static func checkSetterValue(_ name: String, _ value: JSONValue) throws(InvariantViolation) {
        let number = MpvArgument.number(value)
        if let number { try check(number.isFinite, "\(name): a non-finite number \(number) decoded") }
        for lowest in [0, 1] {
            switch MpvArgument.index(value, from: lowest) {
            case .success(let index):
                try check(index >= lowest && number.map { Double(index) == $0 } ?? false, "\(name): index \(index) from \(value) (lowest \(lowest))")
            case .failure(let failure):
                let expected = number == nil ? MpvFailure.badFormat : MpvFailure(MpvRequest.invalidParameter)
                try check(failure == expected, "\(name): \(value) refused with '\(failure.message)', expected '\(expected.message)'")
            }
        }
        if name == "speed", let rate = number, PlaybackRate.problem(with: rate, allowed: PlayerConfiguration().rateRange) == nil {
            try check(rate.isFinite && (-1...2).contains(rate) && rate.magnitude >= PlaybackRate.minimumMagnitude,
                      "speed \(rate) passes the rate rule")
        }
    }
}
