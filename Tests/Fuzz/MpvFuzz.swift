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

import Backend
import Foundation
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
    }
}
