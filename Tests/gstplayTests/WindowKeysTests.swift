import BackendControl
@testable import gstplay
import XCTest

/// Keys typed into the video window (X keysym names) map to the terminal's keys.
final class WindowKeysTests: XCTestCase {
    func testKeysymNamesMapToTheTerminalKeys() {
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "space"), Key.character(" ").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "Left"), Key.left.name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "Right"), Key.right.name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "Up"), Key.up.name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "KP_Down"), Key.down.name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "q"), Key.character("q").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "f"), Key.character("f").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "9"), Key.character("9").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "plus"), Key.character("+").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "minus"), Key.character("-").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "question"), Key.character("?").name)
    }

    func testKeysWithoutABindingGiveNothing() {
        XCTAssertNil(WindowKeyNames.name(forKeysym: "F13"))
        XCTAssertNil(WindowKeyNames.name(forKeysym: "Shift_L"))
        XCTAssertNil(WindowKeyNames.name(forKeysym: ""))
        XCTAssertNil(WindowKeyNames.name(forKeysym: "é"))
    }

    func testFTogglesFullscreenOnTheTerminalAndInTheWindow() {
        XCTAssertEqual(bound(.character("f")), .cycle(.fullscreen))
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "f").flatMap { InputBindings.builtin.binding(forKeyNamed: $0)?.parsed }, .cycle(.fullscreen))
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "space").flatMap { InputBindings.builtin.binding(forKeyNamed: $0)?.parsed }, .cycle(.pause))
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "F11"), Key.named("F11").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "period"), Key.character(".").name)
        XCTAssertTrue(InputBindings.builtin.keyNames.contains { $0.split(separator: " ").contains("f") })
    }
}
