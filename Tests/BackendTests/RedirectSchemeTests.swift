@testable import BackendCore
import Backend
import Foundation
import Glibc
import TestSupport
import XCTest

/// A redirect stays within http and https: a server answering `302 Location: file:///…` (or
/// `data:`, `fd://`, `appsrc://`) must not make the player open a local file or resource under
/// the http URL it was given. The Backend follows redirects itself (``Engine/followRedirect(_:)``);
/// before the scheme check it loaded the `file://` target and a local MP3 played to the end.
final class RedirectSchemeTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    /// `/redirect-to?location=…` answers 302 with that `Location`.
    private func redirect(to location: String) -> String {
        server.url("/redirect-to?location=" + (location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? location))
    }

    /// A copy of a real fixture watched with inotify (`IN_OPEN`): whether anything opened it.
    private final class WatchedFile {
        let path: String
        private let fd: Int32
        init(copying fixture: String) throws {
            let directory = NSTemporaryDirectory() + "gstplay-redirect-target-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/" + (fixture as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: fixture, toPath: path)
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0, inotify_add_watch(fd, path, UInt32(IN_OPEN)) >= 0 else { throw POSIXError(.EIO) }
        }
        /// True when an `IN_OPEN` event is queued (read without blocking).
        var wasOpened: Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            return buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } > 0
        }
        deinit {
            close(fd)
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
    }

    func testARedirectToAFileURIIsRefusedAndTheFileNeverOpened() throws {
        let target = try WatchedFile(copying: TestMedia.path("mp3-4s.mp3"))
        let fileURI = URL(fileURLWithPath: target.path).absoluteString
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(redirect(to: fileURI))
        let error = recorder.waitForValue("error", timeout: 20) { $0.error }
        XCTAssertEqual(error?.kind, .network, "\(String(describing: error))")
        XCTAssertEqual(error?.cause, .redirectRefused, "\(String(describing: error))")
        XCTAssertEqual(error?.httpStatus, 302)
        XCTAssertEqual(error?.message, "the server redirected to '\(fileURI)': a redirect may only lead to http:// or https://")
        XCTAssertFalse(recorder.events.contains(where: \.isEndOfStream), "the local file must not play")
        XCTAssertFalse(target.wasOpened, "the redirect's target was opened")
        XCTAssertEqual(player.refreshStatistics().networkRetries, 0, "refused is final: no reload")
    }

    func testEveryNonHTTPSchemeIsRefused() {
        for location in ["data:audio/mpeg;base64,AAAA", "fd://0", "appsrc://", "FILE:///etc/passwd"] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder)
            player.load(redirect(to: location))
            let error = recorder.waitForValue("error for \(location)", timeout: 20) { $0.error }
            XCTAssertEqual(error?.cause, .redirectRefused, "\(location): \(String(describing: error))")
            XCTAssertTrue(error?.message.hasSuffix("a redirect may only lead to http:// or https://") ?? false, "\(location): \(String(describing: error))")
            player.shutdown()
        }
    }

    func testOnlyHTTPAndHTTPSCountAsHTTP() {
        XCTAssertTrue(Engine.isHTTPScheme("http://x/a"))
        XCTAssertTrue(Engine.isHTTPScheme("HTTPS://x/a"))
        for uri in ["file:///etc/passwd", "fd://0", "data:,x", "appsrc://", "httpx://x", "", "/etc/passwd"] {
            XCTAssertFalse(Engine.isHTTPScheme(uri), uri)
        }
    }
}
