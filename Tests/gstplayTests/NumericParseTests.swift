import Backend
import XCTest
@testable import BackendControl
@testable import gstplay

/// Every numeric parse of outside text, fed the extremes: `Int64.min`/`max`
/// and one beyond, `1e300`, `nan`, `inf`, `-0`, hex floats, huge digit strings. Each must give
/// a value in range or a clear error — never trap (`abs(Int64.min)` killed gstplay with SIGILL).
/// Pure parsing, no GStreamer.
final class NumericParseTests: XCTestCase {
    /// Texts no number parser may trap on.
    static let extremes = [
        "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "9223372036854775808",
        "18446744073709551616", String(repeating: "9", count: 400), "-" + String(repeating: "9", count: 400),
        "1e300", "-1e300", "1e-300", "nan", "-nan", "NaN", "inf", "-inf", "infinity", "0x1p62", "0x7fffffffffffffff",
        "-0", "+0", "0", "-", "+", ".", "", " ", "1.7976931348623157e308", "4.9e-324", "100%", "1e300%", "-1e300%",
        "99999999999999999999:00", "1:99999999999999999999", "9223372036854775807:59:59.999", "-9223372036854775808:00",
    ]

    /// The console offsets: `audio-offset -9223372036854775808` was the SIGILL.
    func testConsoleOffsetsNeverTrap() {
        for command in ["sub-offset", "audio-offset"] {
            for text in Self.extremes {
                switch ConsoleCommand.parse("\(command) \(text)") {
                case .success(.subOffset(let value)), .success(.audioOffset(let value)):
                    XCTAssertTrue((-3_600_000...3_600_000).contains(value), "\(command) \(text) → \(value)")
                case .success(let other): XCTFail("\(command) \(text) → \(other)")
                case .failure(let error): XCTAssertTrue(error.message.hasPrefix(command + ":"), error.message)
                }
            }
            XCTAssertEqual(ConsoleCommand.parse("\(command) -3600000").isSuccess, true)
            XCTAssertEqual(ConsoleCommand.parse("\(command) 3600001").isSuccess, false)
            if case .failure(let error) = ConsoleCommand.parse("\(command) -9223372036854775808") {
                XCTAssertEqual(error.message, "\(command): expected milliseconds within ±3600000, got '-9223372036854775808'")
            } else {
                XCTFail("Int64.min accepted")
            }
        }
    }

    /// `--sub-offset` / `--audio-offset` on the command line: exit 2 with a message, no trap.
    func testOffsetOptionsNeverTrap() throws {
        for option in ["--sub-offset", "--audio-offset"] {
            for text in ["-9223372036854775808", "9223372036854775807", "-3600001", "99999999999999999999"] {
                XCTAssertThrowsError(try GstplayCommand.parse([option, text, "x.mp4"]).makeOptions(), "\(option) \(text)")
            }
            XCTAssertEqual(try GstplayCommand.parse([option, "-3600000", "x.mp4"]).makeOptions().tracks.subtitleOffset
                           + GstplayCommand.parse([option, "-3600000", "x.mp4"]).makeOptions().tracks.audioOffset, -3_600_000)
        }
    }

    /// `seek`, `--start`: every extreme is an error or a finite time.
    func testSeekArgumentsNeverTrap() {
        for text in Self.extremes + Self.extremes.map({ "+" + $0 }) {
            switch SeekArgument.parse(text) {
            case .success(.absolute(let time)), .success(.relative(let time)):
                XCTAssertLessThan(time.seconds.magnitude, 1e12, text)
            case .success(.fraction(let fraction)): XCTAssertTrue((0...1).contains(fraction), text)
            case .failure(let error): XCTAssertFalse(error.message.isEmpty)
            }
            _ = try? GstplayCommand.parse(["--start", text, "x.mp4"]).makeOptions()
            _ = ConsoleCommand.parse("seek \(text)")
        }
        XCTAssertEqual(SeekArgument.parse("-0"), .success(.relative(.zero)))
    }

    /// `volume`, `rate`, `jump`, `track`, `variant` on the console and `--volume`, `--rate`,
    /// `--position-interval`, `--network-timeout`, `--audio-track` on the command line.
    func testOtherNumbersNeverTrap() {
        for text in Self.extremes {
            for command in ["volume", "rate", "jump", "remove", "track audio", "variant", "move 0", "seek"] {
                _ = ConsoleCommand.parse("\(command) \(text)")
            }
            for option in ["--volume", "--rate", "--position-interval", "--network-timeout", "--audio-track", "--sub-track",
                           "--max-bitrate", "--max-height", "--cache-size"] {
                _ = try? GstplayCommand.parse([option, text, "x.mp4"]).makeOptions()
            }
        }
    }

    /// A seeded random fuzz of the same parsers (10,000 texts of digits, signs, dots, colons, `%`,
    /// exponents, suffixes, up to 40 characters, some 20-digit runs): no trap, and every accepted
    /// value in its range. Seeded, so a failure repeats.
    func testRandomNumericTextNeverTraps() throws {
        var generator = SeededGenerator(seed: 0x5EED_2020)  // a failure repeats
        let alphabet = Array("0123456789+-.:%eExXpkKmMgGnaifNI ")
        for _ in 0..<10_000 {
            let length = Int(generator.next() % 41)
            var text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            if generator.next() % 4 == 0 { text += String(repeating: "9", count: 20) }
            if case .success(.subOffset(let value)) = ConsoleCommand.parse("sub-offset " + text) {
                XCTAssertTrue((-3_600_000...3_600_000).contains(value), text)
            }
            _ = ConsoleCommand.parse("audio-offset " + text)
            switch SeekArgument.parse(text) {
            case .success(.absolute(let time)), .success(.relative(let time)): XCTAssertLessThan(time.seconds.magnitude, 1e12, text)
            case .success(.fraction(let fraction)): XCTAssertTrue((0...1).contains(fraction), text)
            case .failure: break
            }
            for command in ["volume", "rate", "jump", "move 1", "track audio", "variant"] { _ = ConsoleCommand.parse("\(command) \(text)") }
            if let bytes = NetworkOptions.size(text) { XCTAssertGreaterThanOrEqual(bytes, 0, text) }
        }
    }

    /// `--cache-size`: only decimal numbers with an optional k/M/G, positive, below `Int64.max`.
    func testCacheSizes() {
        XCTAssertEqual(NetworkOptions.size("500M"), 500 * 1024 * 1024)
        XCTAssertEqual(NetworkOptions.size("1.5k"), 1536)
        XCTAssertEqual(NetworkOptions.size("8E"), nil, "no exabyte suffix")
        for text in Self.extremes + ["8589934592G", "9007199254740993G", "0x10", "1e3", "nanG", "infM", "-1G", "-0k"] {
            if let bytes = NetworkOptions.size(text) {
                XCTAssertGreaterThan(bytes, 0, text)
                XCTAssertTrue(text.allSatisfy { $0.isNumber || $0 == "." || "kKmMgG".contains($0) }, "\(text) accepted")
            }
        }
        XCTAssertNil(NetworkOptions.size("0x10"), "hex floats are not sizes")
        XCTAssertNil(NetworkOptions.size("1e3"), "exponents are not sizes")
    }

    /// Milliseconds to nanoseconds saturate (`Player.setSubtitleOffset(milliseconds: .min)` from an app).
    func testMillisecondsSaturate() {
        XCTAssertEqual(MediaTime.milliseconds(.min).nanoseconds, .min)
        XCTAssertEqual(MediaTime.milliseconds(.max).nanoseconds, .max)
        XCTAssertEqual(MediaTime.milliseconds(-3_600_000).nanoseconds, -3_600_000_000_000)
        XCTAssertEqual(MediaTime(seconds: .nan), .zero)
        XCTAssertEqual(MediaTime(seconds: 1e300).nanoseconds, .max)
        XCTAssertEqual(MediaTime(seconds: -1e300).nanoseconds, .min)
        XCTAssertEqual((MediaTime(nanoseconds: .min) - MediaTime(nanoseconds: .min)).nanoseconds, -1, "saturated, no trap")
    }

    /// Formatting numbers that no player reports must not trap either.
    func testFormattingExtremes() {
        for rate in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double(Int64.max), 0.005, -0.0] {
            XCTAssertFalse(StatusLine.formatRate(rate).isEmpty)
        }
        XCTAssertEqual(StatusLine.formatRate(1.5), "1.5")
        XCTAssertEqual(StatusLine.formatRate(-1), "-1")
        XCTAssertEqual(MediaTime(nanoseconds: .min).formatted(fractionDigits: 3), "-2562047:47:16.854")
    }
}


private extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
