@testable import BackendWindow
import XCTest

/// The window feature's click counting and wheel buttons (pure).
final class ClickCounterTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func testASecondPressWithinTheIntervalIsADoubleClickAndNoSingleOne() {
        var clicks = ClickCounter()
        XCTAssertTrue(clicks.press(button: 1, at: 1000 * ms).isEmpty)
        let double = clicks.press(button: 1, at: 1100 * ms)
        XCTAssertEqual(double.map(\.button), [1])
        XCTAssertEqual(double.map(\.count), [2])
        XCTAssertNil(clicks.expire(at: 2000 * ms), "a double click leaves no single click behind")
    }

    func testALonePressIsASingleClickOnceTheIntervalPassed() {
        var clicks = ClickCounter()
        XCTAssertTrue(clicks.press(button: 1, at: 1000 * ms).isEmpty)
        XCTAssertNil(clicks.expire(at: 1000 * ms + ClickCounter.interval - 1))
        let single = clicks.expire(at: 1000 * ms + ClickCounter.interval)
        XCTAssertEqual(single?.button, 1)
        XCTAssertEqual(single?.count, 1)
        XCTAssertNil(clicks.expire(at: 5000 * ms))
    }

    func testASlowSecondPressOrAnotherButtonEndsTheFirstAsASingleClick() {
        var clicks = ClickCounter()
        _ = clicks.press(button: 1, at: 1000 * ms)
        XCTAssertEqual(clicks.press(button: 3, at: 1050 * ms).map(\.count), [1])
        XCTAssertEqual(clicks.pending?.button, 3)
        XCTAssertEqual(clicks.press(button: 3, at: 1050 * ms + ClickCounter.interval + 1).map(\.count), [1], "too slow for a double click")
    }

    func testWheelButtonsAreScrolls() {
        XCTAssertEqual(PointerInput(button: 4), .scroll(deltaX: 0, deltaY: 1))
        XCTAssertEqual(PointerInput(button: 5), .scroll(deltaX: 0, deltaY: -1))
        XCTAssertEqual(PointerInput(button: 1), .press(button: 1))
    }
}
