@testable import gstplay
import XCTest

/// Keys typed into the video window (X keysym names) map to the terminal's keys (issue #10).
final class WindowKeysTests: XCTestCase {
    func testKeysymNamesMapToTheTerminalKeys() {
        XCTAssertEqual(WindowKeys.key(forKeysym: "space"), .character(" "))
        XCTAssertEqual(WindowKeys.key(forKeysym: "Left"), .left)
        XCTAssertEqual(WindowKeys.key(forKeysym: "Right"), .right)
        XCTAssertEqual(WindowKeys.key(forKeysym: "Up"), .up)
        XCTAssertEqual(WindowKeys.key(forKeysym: "KP_Down"), .down)
        XCTAssertEqual(WindowKeys.key(forKeysym: "q"), .character("q"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "f"), .character("f"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "9"), .character("9"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "plus"), .character("+"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "minus"), .character("-"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "question"), .character("?"))
    }

    func testKeysWithoutABindingGiveNothing() {
        XCTAssertNil(WindowKeys.key(forKeysym: "F13"))
        XCTAssertNil(WindowKeys.key(forKeysym: "Shift_L"))
        XCTAssertNil(WindowKeys.key(forKeysym: ""))
        XCTAssertNil(WindowKeys.key(forKeysym: "é"))
    }

    func testFTogglesFullscreenOnTheTerminalAndInTheWindow() {
        XCTAssertEqual(bound(.character("f")), .cycle(.fullscreen))
        XCTAssertEqual(WindowKeys.key(forKeysym: "f").flatMap(bound), .cycle(.fullscreen))
        XCTAssertEqual(WindowKeys.key(forKeysym: "space").flatMap(bound), .cycle(.pause))
        XCTAssertEqual(WindowKeys.key(forKeysym: "F11"), .named("F11"))
        XCTAssertEqual(WindowKeys.key(forKeysym: "period"), .character("."))
        XCTAssertTrue(HelpText.keyNames().contains { $0.split(separator: " ").contains("f") })
    }
}
