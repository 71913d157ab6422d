import Backend
import XCTest
@testable import BackendControl
@testable import gstplay

final class SeekArgumentTests: XCTestCase {
    private func parsed(_ text: String) -> SeekArgument? { try? SeekArgument.parse(text).get() }
    private func error(_ text: String) -> String? {
        if case .failure(let error) = SeekArgument.parse(text) { return error.message }
        return nil
    }

    func testSeconds() {
        XCTAssertEqual(parsed("90"), .absolute(MediaTime(seconds: 90)))
        XCTAssertEqual(parsed("0"), .absolute(.zero))
        XCTAssertEqual(parsed("2.5"), .absolute(.milliseconds(2500)))
        XCTAssertEqual(parsed(" 7 "), .absolute(MediaTime(seconds: 7)))
        XCTAssertEqual(parsed("90."), .absolute(MediaTime(seconds: 90)))
    }

    func testClockForms() {
        XCTAssertEqual(parsed("1:30"), .absolute(MediaTime(seconds: 90)))
        XCTAssertEqual(parsed("0:05"), .absolute(MediaTime(seconds: 5)))
        XCTAssertEqual(parsed("1:02:03.5"), .absolute(.milliseconds(3_723_500)))
        XCTAssertEqual(parsed("10:00:00"), .absolute(MediaTime(seconds: 36_000)))
        XCTAssertEqual(parsed("90:00"), .absolute(MediaTime(seconds: 5400)), "minutes may exceed 59 without hours")
    }

    func testRelative() {
        XCTAssertEqual(parsed("+10"), .relative(MediaTime(seconds: 10)))
        XCTAssertEqual(parsed("-5"), .relative(MediaTime(seconds: -5)))
        XCTAssertEqual(parsed("-1:00"), .relative(MediaTime(seconds: -60)))
        XCTAssertEqual(parsed("+0.25"), .relative(.milliseconds(250)))
    }

    func testPercent() {
        XCTAssertEqual(parsed("50%"), .fraction(0.5))
        XCTAssertEqual(parsed("0%"), .fraction(0))
        XCTAssertEqual(parsed("100%"), .fraction(1))
        XCTAssertEqual(parsed("12.5%"), .fraction(0.125))
    }

    func testGarbage() {
        XCTAssertEqual(error("1:99"), "invalid time '1:99': seconds must be below 60")
        XCTAssertEqual(error("1:60:00"), "invalid time '1:60:00': minutes must be below 60")
        for bad in ["abc", "nan", "inf", "-inf", "+nan", "1e3", "0x10", "1:2:3:4", "1::2", ":30", "1:", "1.2.3", "--5", "+", "-", ".", "1 2", "١٢"] {
            let message = error(bad)
            XCTAssertNotNil(message, "'\(bad)' must be rejected")
            XCTAssertTrue(message?.contains("'\(bad.trimmingCharacters(in: .whitespaces))'") ?? false, "message names the input: \(message ?? "")")
        }
        XCTAssertEqual(error(""), "empty time (expected \(SeekArgument.formats))")
        XCTAssertEqual(error("   "), "empty time (expected \(SeekArgument.formats))")
        XCTAssertEqual(error("150%"), "percentage '150%' is out of range 0-100%")
        XCTAssertEqual(error("-5%"), "invalid percentage '-5%' (expected a number from 0 to 100 followed by %)")
        XCTAssertEqual(error("abc%"), "invalid percentage 'abc%' (expected a number from 0 to 100 followed by %)")
        XCTAssertEqual(error(String(repeating: "9", count: 30)), "invalid time '\(String(repeating: "9", count: 30))': too large")
        XCTAssertEqual(error(String(repeating: "9", count: 400)), "invalid time '\(String(repeating: "9", count: 40))…' (expected \(SeekArgument.formats))")
    }

    func testStrictNumbers() {
        XCTAssertEqual(StrictNumber.unsigned("1.5"), 1.5)
        XCTAssertEqual(StrictNumber.unsigned(".5"), 0.5)
        XCTAssertNil(StrictNumber.unsigned("nan"))
        XCTAssertNil(StrictNumber.unsigned("inf"))
        XCTAssertNil(StrictNumber.unsigned("-1"))
        XCTAssertNil(StrictNumber.unsigned(""))
        XCTAssertEqual(StrictNumber.signed("-1"), -1)
        XCTAssertEqual(StrictNumber.signed("+2"), 2)
        XCTAssertNil(StrictNumber.signed("+-2"))
    }
}
