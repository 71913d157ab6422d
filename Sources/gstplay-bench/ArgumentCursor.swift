import Foundation

/// A command line read left to right, the one reader of `gstplay-bench`'s flags and their values
/// (``BenchOptions`` and ``QoEOptions``; parsed by hand: the bench has no package dependencies).
/// Main thread (argument parsing, before any case runs); pure Swift, no GLib.
struct ArgumentCursor {
    private let arguments: [String]
    /// The argument under the cursor; -1 before the first ``next()``.
    private var index = -1

    /// A cursor before the first of `arguments`.
    init(_ arguments: [String]) { self.arguments = arguments }

    /// Moves to the next argument and returns it (a flag), or nil past the last.
    mutating func next() -> String? {
        index += 1
        return index < arguments.count ? arguments[index] : nil
    }

    /// The value after the current flag (consumed); `FLAG needs a value` when there is none.
    mutating func value() throws -> String {
        guard index + 1 < arguments.count else { throw BenchError("\(arguments[index]) needs a value") }
        index += 1
        return arguments[index]
    }

    /// The value as a whole number ≥ 0; `FLAG takes a whole number, not 'TEXT'` otherwise.
    mutating func wholeNumber() throws -> Int {
        let text = try value()
        guard let number = Int(text), number >= 0 else { throw BenchError("\(arguments[index - 1]) takes a whole number, not '\(text)'") }
        return number
    }

    /// The value as a finite number ≥ 0; `FLAG takes a number ≥ 0, not 'TEXT'` otherwise.
    mutating func number() throws -> Double {
        let text = try value()
        guard let number = Double(text), number >= 0, number.isFinite else { throw BenchError("\(arguments[index - 1]) takes a number ≥ 0, not '\(text)'") }
        return number
    }
}
