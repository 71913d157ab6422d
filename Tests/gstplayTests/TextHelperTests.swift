import Backend
import Foundation
import XCTest
@testable import BackendControl
@testable import gstplay

/// The CLI's Foundation-free text and path helpers (Text+Trimming.swift, PathText.swift) give
/// what the Foundation calls they replaced give, on fixed cases and on many generated strings
/// (a fixed-seed generator, so a failure repeats). The test target may link Foundation; the
/// shipped gstplay does not.
final class TextHelperTests: XCTestCase {
    private func strings(from alphabet: [String], count: Int, maxLength: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
    }

    private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    func testTrimmingMatchesFoundationForEveryScalar() {
        let planes = Array(UInt32(0)...0xFFFF) + Array(stride(from: UInt32(0x10000), through: 0x10FFFF, by: 97))
        for value in planes {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "x" + String(scalar) + "y" + String(scalar)
            XCTAssertEqual(scalars(text.trimmingWhitespace()), scalars(text.trimmingCharacters(in: .whitespaces)), "U+\(String(value, radix: 16))")
            XCTAssertEqual(scalars(text.trimmingWhitespaceAndNewlines()), scalars(text.trimmingCharacters(in: .whitespacesAndNewlines)), "U+\(String(value, radix: 16))")
        }
    }

    func testTrimmingMatchesFoundationOnGeneratedText() {
        let alphabet = [" ", "\t", "\n", "\r", "\r\n", "\u{A0}", "\u{2028}", "\u{200B}", "\u{85}", "\u{3000}", "\u{FEFF}",
                        "a", "é", "e\u{301}", "\u{301}", "\u{20DD}", "\u{FE0F}", "😀", "🇫🇷", "\u{0}"]
        for text in strings(from: alphabet, count: 3000, maxLength: 8, seed: 1) {
            XCTAssertEqual(scalars(text.trimmingWhitespace()), scalars(text.trimmingCharacters(in: .whitespaces)), text.debugDescription)
            XCTAssertEqual(scalars(text.trimmingWhitespaceAndNewlines()), scalars(text.trimmingCharacters(in: .whitespacesAndNewlines)), text.debugDescription)
            XCTAssertEqual(scalars(text.dropFirst().trimmingWhitespace()), scalars(text.dropFirst().trimmingCharacters(in: .whitespaces)))
            XCTAssertEqual(scalars(text.replacingScalar("\n", with: " / ")), scalars(text.replacingOccurrences(of: "\n", with: " / ")), text.debugDescription)
        }
    }

    func testPaddingMatchesFoundation() {
        for text in strings(from: ["a", "é", "😀", " ", "e\u{301}"], count: 500, maxLength: 6, seed: 2) {
            for length in 0...12 {
                XCTAssertEqual(scalars(text.padded(toLength: length)), scalars(text.padding(toLength: length, withPad: " ", startingAt: 0)), "\(text.debugDescription) \(length)")
            }
        }
        XCTAssertEqual("Playing".padded(toLength: 9), "Playing  ")
    }

    func testCapitalizedWordAndCaseInsensitiveContains() {
        for kind in TrackKind.allCases { XCTAssertEqual(kind.rawValue.capitalizedWord, kind.rawValue.capitalized) }
        XCTAssertTrue("Could not open file (PERMISSION denied)".containsIgnoringCase("Permission denied"))
        XCTAssertFalse("Could not open file".containsIgnoringCase("Permission denied"))
    }

    func testNumberFormattingMatchesStringFormat() {
        var generator = SeededGenerator(seed: 3)
        var values: [Double] = [0, -0.0, 0.05, 0.25, 1023.95, 1024, 29.97, 23.976, 1e7, 1e-7, 123_456.789, .infinity, -.infinity, .nan]
        for _ in 0..<2000 { values.append(Double(bitPattern: generator.next() & 0x7FFF_FFFF_FFFF_FFFF) .truncatingRemainder(dividingBy: 1e9)) }
        for _ in 0..<2000 { values.append(Double.random(in: -5000...5000, using: &generator)) }
        for value in values {
            XCTAssertEqual(CFormat.number("%.1f", value), String(format: "%.1f", value))
            XCTAssertEqual(CFormat.number("%.3g", value), String(format: "%.3g", value))
        }
        XCTAssertEqual(CFormat.number("%.1f", 1e300).count, String(format: "%.1f", 1e300).count)   // longer than the first buffer
        XCTAssertEqual(CacheCommand.bytes(1_048_576), "1.0 MiB")
    }

    /// Compared on ASCII paths only: swift-corelibs-foundation's `NSString` path methods trap
    /// on non-ASCII paths (`/é`) and on one-character ones (`a`, `a/`), and answer `""` for
    /// `//`; ``PathText`` answers those sanely (checked below).
    func testPathOperationsMatchNSString() {
        let paths = ["/a/b.png", "b.png", "/b.png", "a//b.png", "a/b/", "/", "", "./x", "..", ".hidden", "x.", "a.b.c",
                     "dir.d/", "a/.b", "a/..", "/tmp/x.y/z"]
            + strings(from: ["a", "b", ".", "/", " ", ".."], count: 3000, maxLength: 7, seed: 4)
        for path in paths {
            let fixed = path.split(separator: "/", omittingEmptySubsequences: true)
            if fixed.isEmpty && path.count > 1 { continue }                          // `//`: Foundation says ""
            if fixed.count == 1 && fixed[0].count == 1 && !path.hasPrefix("/") { continue }   // `a`, `a/`: Foundation traps
            let ns = path as NSString
            XCTAssertEqual(PathText.deletingLastComponent(path), ns.deletingLastPathComponent, path.debugDescription)
            XCTAssertEqual(PathText.lastComponent(path), ns.lastPathComponent, path.debugDescription)
            XCTAssertEqual(PathText.deletingExtension(path), ns.deletingPathExtension, path.debugDescription)
            for component in ["x.png", "gstplay-a-00-00-01.000.png"] {
                XCTAssertEqual(PathText.appending(component, to: path), ns.appendingPathComponent(component), path.debugDescription)
            }
        }
    }

    func testPathOperationsWhereFoundationFails() {
        XCTAssertEqual(PathText.deletingLastComponent("a"), "")
        XCTAssertEqual(PathText.deletingLastComponent("a/"), "")
        XCTAssertEqual(PathText.deletingLastComponent("//"), "/")
        XCTAssertEqual(PathText.deletingLastComponent("/tmp/é/x.png"), "/tmp/é")
        XCTAssertEqual(PathText.lastComponent("/tmp/é/cliché.png"), "cliché.png")
        XCTAssertEqual(PathText.deletingExtension("/tmp/é/cliché.png"), "/tmp/é/cliché")
        XCTAssertEqual(PathText.appending("é.png", to: "/tmp/é"), "/tmp/é/é.png")
    }

    func testPercentDecodingMatchesFoundation() {
        let texts = ["a%20b", "%zz", "%", "%2", "%2F", "%C3%A9", "%C3", "%FF", "%00", "clip%20x.mp4", "é%41"]
            + strings(from: ["a", "%", "2", "F", "C", "3", "A", "9", "z", "é", "0"], count: 3000, maxLength: 8, seed: 5)
        for text in texts {
            let foundation = text.removingPercentEncoding
            // Foundation turns some invalid UTF-8 (a lone `%A9`, not `%80` or `%C3`) into U+FFFD;
            // PathText answers nil for all of it (baseName then keeps the escaped text).
            if let foundation, foundation.unicodeScalars.contains("\u{FFFD}") { XCTAssertNil(PathText.removingPercentEncoding(text)); continue }
            XCTAssertEqual(PathText.removingPercentEncoding(text).map(scalars), foundation.map(scalars), text.debugDescription)
        }
    }

    func testFileTestsFollowLinks() throws {
        XCTAssertTrue(PathText.isDirectory("/tmp"))
        XCTAssertFalse(PathText.isDirectory("/etc/passwd"))
        XCTAssertTrue(PathText.exists("/etc/passwd"))
        XCTAssertFalse(PathText.exists("/nonexistent-gstplay-path"))
        let link = NSTemporaryDirectory() + "/gstplay-text-helper-link-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/tmp")
        defer { try? FileManager.default.removeItem(atPath: link) }
        XCTAssertTrue(PathText.isDirectory(link))
    }
}
