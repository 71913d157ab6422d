import Foundation
import Glibc
import TestSupport
import XCTest

/// Controlling playback does not grant writing files (docs/RELIABILITY.md, "Who may write files"):
/// a control-socket client and a web remote client may not run `playlist save PATH` or
/// `snapshot PATH` anywhere (before the rule both wrote any path the user could, and `playlist
/// save` replaced a device node); with `--client-write-dir DIR` they write plain names inside
/// DIR only, never through a symbolic link; the local console still writes where the user says,
/// but no writer replaces anything but a regular file.
final class ClientFileWriteTests: XCTestCase {
    private var scratch: String!

    override func setUpWithError() throws {
        VenvScript.assertInstalled()
        scratch = NSTemporaryDirectory() + "gstplay-client-files-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: scratch) }

    /// gstplay with the control socket and the web remote on the looping video fixture, once playing.
    private func start(_ extra: [String] = []) throws -> (session: RemoteSession, socket: UnixSocketClient) {
        let path = scratch + "/sock"
        let session = try RemoteSession(["--remote=0", "--input-ipc-server", path] + extra + ["--loop", TestMedia.vp8])
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#, timeout: 30), session.child.stdout)
        let socket = try UnixSocketClient(path: path)
        XCTAssertNotNil(socket.waitForObject { $0["event"] as? String == "hello" })
        return (session, socket)
    }

    /// `command` through the socket: its reply's `error`.
    private func socketError(_ socket: UnixSocketClient, _ command: String, id: Int) -> String? {
        let quoted = String(decoding: try! JSONEncoder().encode(command), as: UTF8.self)
        socket.send(#"{"command":\#(quoted),"request_id":\#(id)}"#)
        return socket.reply(to: id, timeout: 20)?["error"] as? String
    }

    /// `command` through the web remote's HTTP API: status and reply body.
    private func webCommand(_ session: RemoteSession, _ command: String) -> (status: Int?, body: String) {
        let result = session.client(["http", "POST", session.base + "/api/command", "--token", session.token, "--body", command]).json
        return (result?["status"] as? Int, result?["body"] as? String ?? "")
    }

    func testRemoteClientsCannotWriteFilesWithoutAClientDirectory() throws {
        let (session, socket) = try start()
        defer { session.stop() }
        let elsewhere = scratch + "/elsewhere"
        for (index, command) in ["playlist save \(elsewhere).m3u", "snapshot \(elsewhere).png", "cover \(elsewhere)-cover.png", "snapshot"].enumerated() {
            let error = socketError(socket, command, id: index + 1)
            XCTAssertTrue(error?.contains("refused: control clients may not write files") ?? false, "socket '\(command)': \(String(describing: error))")
            let web = webCommand(session, command)
            XCTAssertEqual(web.status, 400, "web '\(command)': \(web.body)")
            XCTAssertTrue(web.body.contains("refused: control clients may not write files"), "web '\(command)': \(web.body)")
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: scratch).filter { $0 != "sock" }
        XCTAssertEqual(written, [], "no file written by a control client")
        XCTAssertEqual(socketError(socket, "status", id: 9), "success", "playback control still works")

        // The local console (stdin) still writes where the user says.
        let local = scratch + "/local.m3u"
        session.child.send(#"{"command":"playlist save \#(local)","request_id":"local"}"#)
        XCTAssertNotNil(session.child.waitForJSON { $0["request_id"] as? String == "local" && $0["error"] as? String == "success" }, session.child.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: local))
    }

    func testAClientDirectoryTakesPlainNamesOnlyAndNeverFollowsALink() throws {
        let directory = scratch + "/client"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let target = scratch + "/link-target.m3u"
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.m3u", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: directory + "/subdir", withDestinationPath: scratch)
        let (session, socket) = try start(["--client-write-dir", directory])
        defer { session.stop() }

        XCTAssertEqual(socketError(socket, "playlist save list.m3u", id: 1), "success")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/list.m3u"))
        XCTAssertEqual(webCommand(session, "snapshot shot.png").status, 200)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/shot.png"))
        XCTAssertEqual(socketError(socket, "snapshot", id: 2), "success", "no name: the default name inside the directory")
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasPrefix("gstplay-vp8-opus-4s-") && $0.hasSuffix(".png") })

        for (index, name) in ["../escape.m3u", scratch + "/abs.m3u", "subdir/x.m3u", "..", "."].enumerated() {
            let error = socketError(socket, "playlist save \(name)", id: 10 + index)
            XCTAssertTrue(error?.contains("refused: a control client may only name a file inside --client-write-dir") ?? false, "'\(name)': \(String(describing: error))")
        }
        let link = socketError(socket, "playlist save link.m3u", id: 20)
        XCTAssertTrue(link?.contains("is a symbolic link, not a regular file") ?? false, String(describing: link))
        let web = webCommand(session, "snapshot subdir")
        XCTAssertTrue(web.body.contains("is a symbolic link, not a regular file"), web.body)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "nothing written through the link")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.m3u"), target, "the link itself is left alone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch + "/escape.m3u"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch + "/abs.m3u"))
    }

    /// The local console names a FIFO (a special file like a device node): the atomic replace
    /// refuses instead of putting a regular file in its place.
    func testNoWriterReplacesASpecialFile() throws {
        let fifo = scratch + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let (session, _) = try start()
        defer { session.stop() }
        for (id, command) in [("save", "playlist save \(fifo)"), ("shot", "snapshot \(fifo)")] {
            session.child.send(#"{"command":"\#(command)","request_id":"\#(id)"}"#)
            let reply = session.child.waitForJSON { $0["request_id"] as? String == id }
            let error = reply?["error"] as? String ?? ""
            XCTAssertTrue(error.contains("is a FIFO, not a regular file"), "\(command): \(error)")
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still the FIFO")
    }

    func testClientWriteDirMustBeADirectoryAndNeedsAClientDoor() throws {
        for (arguments, text) in [
            (["--input-ipc-server", scratch! + "/s", "--client-write-dir", scratch! + "/missing", TestMedia.vp8], "is not an existing directory"),
            (["--client-write-dir", scratch!, TestMedia.vp8], "--client-write-dir needs --input-ipc-server or --remote"),
        ] {
            let result = try GstplayProcess.run(arguments, timeout: 20)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        }
    }
}
