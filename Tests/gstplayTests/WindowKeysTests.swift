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
        XCTAssertNil(WindowKeys.key(forKeysym: "F11"))
        XCTAssertNil(WindowKeys.key(forKeysym: "Shift_L"))
        XCTAssertNil(WindowKeys.key(forKeysym: ""))
        XCTAssertNil(WindowKeys.key(forKeysym: "é"))
    }

    func testFTogglesFullscreenOnTheTerminalAndInTheWindow() {
        XCTAssertEqual(KeyAction.action(for: .character("f")), .toggleFullscreen)
        XCTAssertEqual(WindowKeys.key(forKeysym: "f").flatMap(KeyAction.action(for:)), .toggleFullscreen)
        XCTAssertEqual(WindowKeys.key(forKeysym: "space").flatMap(KeyAction.action(for:)), .togglePause)
        XCTAssertTrue(KeyAction.bindings.contains { $0.keys == "f" })
    }
}
