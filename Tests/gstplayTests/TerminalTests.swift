import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// gstplay under a real pseudo-terminal (`posix_openpt`): the status line, single keys, and
/// the terminal settings put back afterwards.
final class TerminalTests: XCTestCase {
    /// A pty pair; the child gets the slave as stdin, stdout and stderr.
    struct PseudoTerminal {
        let master: Int32
        let slave: Int32

        init() throws {
            // posix_openpt & co. are not visible through Glibc's Swift module: look them up in libc.
            typealias OpenPT = @convention(c) (Int32) -> Int32
            typealias FDCall = @convention(c) (Int32) -> Int32
            typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
            let libc = dlopen(nil, RTLD_NOW)
            guard let openSymbol = dlsym(libc, "posix_openpt"), let grantSymbol = dlsym(libc, "grantpt"),
                  let unlockSymbol = dlsym(libc, "unlockpt"), let nameSymbol = dlsym(libc, "ptsname_r") else {
                throw NSError(domain: "pty", code: 0)
            }
            master = unsafeBitCast(openSymbol, to: OpenPT.self)(O_RDWR | O_NOCTTY)
            var name = [CChar](repeating: 0, count: 128)
            guard master >= 0, unsafeBitCast(grantSymbol, to: FDCall.self)(master) == 0,
                  unsafeBitCast(unlockSymbol, to: FDCall.self)(master) == 0,
                  unsafeBitCast(nameSymbol, to: PTSName.self)(master, &name, name.count) == 0 else {
                throw NSError(domain: "pty", code: Int(errno))
            }
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            slave = open(path, O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
            var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        }

        /// Reads from the master until `predicate` holds for everything read so far, or the deadline.
        func read(into text: inout String, timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !predicate(text) {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { return false }
                var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, Int32(min(remaining, 0.5) * 1000)) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                guard count > 0 else { return predicate(text) }
                text += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return true
        }

        func send(_ text: String) { _ = text.withCString { write(master, $0, strlen($0)) } }

        func settings() -> [UInt8] {
            var value = termios()
            XCTAssertEqual(tcgetattr(slave, &value), 0)
            return withUnsafeBytes(of: &value) { Array($0) }
        }
    }

    /// A gstplay session on a fresh pty: gstplay plays the 10 s clip with the pty's slave as
    /// stdin, stdout and stderr; `body` runs once "Playing" is on the screen and gets the pty,
    /// the process, a semaphore signalled at its exit, the terminal settings from before it
    /// started and the screen so far. The pty is closed and gstplay killed afterwards.
    /// `arguments` replace the 10 s clip (ChapterTerminalTests, the tagged MP3).
    func session(arguments: [String] = [GstplayProcess.fixture("h264-aac-10s.mp4")], environment: [String: String]? = nil,
                 _ body: (PseudoTerminal, Process, DispatchSemaphore, [UInt8], inout String) throws -> Void) throws {
        let pty = try PseudoTerminal()
        defer { close(pty.master); close(pty.slave) }
        let before = pty.settings()
        let process = Process()
        process.executableURL = GstplayProcess.binary
        if let environment = GstplayProcess.childEnvironment(environment) { process.environment = environment }
        process.arguments = arguments
        let terminal = FileHandle(fileDescriptor: pty.slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        defer {
            // Reaped and unhooked before the session ends: Foundation's Process keeps itself (and the
            // handler's captures) alive until its exit is observed, which `make test-asan`'s
            // whole-process leak check (WholeProcessLeakCheckTests, same process) saw as leaks.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            process.terminationHandler = nil
        }
        var screen = ""
        XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("Playing") }, screen)
        try body(pty, process, exited, before, &screen)
    }

    /// The MP3's ID3 artist and title on the status line, after the bar.
    func testStatusLineShowsTheMP3sArtistAndTitle() throws { try session(arguments: [GstplayProcess.fixture("tagged-cover.mp3")]) { pty, _, _, _, screen in
        let statusLine = #"/ 0:00:03 \[[ =>]*\] gstplay Fixtures – Test Tone"#
        XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.range(of: statusLine, options: .regularExpression) != nil }, screen)
    } }

    // (i)
    func testStatusLineKeysAndTerminalRestore() throws { try session { pty, process, exited, before, screen in
        XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains(" / 0:00:10") }, screen)
        XCTAssertTrue(screen.contains("\r\u{1B}[K") || screen.contains("\u{1B}[K"), "updated in place")
        XCTAssertTrue(screen.contains("["), "progress bar")
        XCTAssertNotEqual(pty.settings(), before, "raw mode is on while playing")

        pty.send(" ")
        XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("Paused") }, screen)
        pty.send("q")
        XCTAssertEqual(exited.wait(timeout: .now() + 20), .success, "gstplay did not quit on 'q': \(screen)")
        _ = pty.read(into: &screen, timeout: 0.2) { _ in false }   // whatever is left
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, screen)
        XCTAssertEqual(pty.settings(), before, "terminal settings restored")
        for line in screen.components(separatedBy: "\r\n") {
            // Never wider than the terminal: each redraw after \r fits into 99 columns.
            for segment in line.components(separatedBy: "\r") where segment.contains(" / ") {
                XCTAssertLessThanOrEqual(segment.replacingOccurrences(of: "\u{1B}[K", with: "").count, 99, segment)
            }
        }
    } }

    /// On a terminal with a session bus, MPRIS is on without being asked for; a key
    /// pauses (MPRIS says Paused) and `playerctl play` resumes (the status line says Playing).
    func testMPRISIsOnByDefaultOnATerminal() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl"), "playerctl is not installed (make test installs it)")
        let bus = try SessionBus()
        try session(environment: bus.environment()) { pty, process, exited, _, screen in
            XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
                bus.playerctl("-p", "gstplay", "status") == "Playing"
            }, "not on the bus: \(bus.playerctl("-l"))")
            pty.send(" ")
            XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(50)) { bus.playerctl("-p", "gstplay", "status") == "Paused" })
            screen = ""
            bus.playerctl("-p", "gstplay", "play")
            XCTAssertTrue(pty.read(into: &screen, timeout: 10) { $0.contains("Playing") }, screen)
            pty.send("q")
            XCTAssertEqual(exited.wait(timeout: .now() + 20), .success)
            XCTAssertEqual(process.terminationStatus, 0)
        }
    }

    func testTerminalIsRestoredOnSIGTERM() throws { try session { pty, process, exited, before, _ in
        process.terminate()
        XCTAssertEqual(exited.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertEqual(pty.settings(), before, "terminal settings restored after SIGTERM")
    } }

    func testCtrlZRestoresTheTerminalAndFgResumesRawMode() throws { try session { pty, process, exited, before, _ in
        XCTAssertNotEqual(pty.settings(), before)

        kill(process.processIdentifier, SIGTSTP)
        XCTAssertTrue(eventually(timeout: .seconds(10)) { ProcessProbe(pid: process.processIdentifier).state == "T" }, "stopped")
        XCTAssertEqual(pty.settings(), before, "terminal restored while stopped")
        kill(process.processIdentifier, SIGCONT)
        XCTAssertTrue(eventually(timeout: .seconds(10)) { pty.settings() != before }, "raw mode again after SIGCONT")

        pty.send("q")
        XCTAssertEqual(exited.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(pty.settings(), before)
    } }
}
