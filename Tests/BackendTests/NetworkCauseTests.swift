@testable import BackendCore
import Backend
import Foundation
import Glibc
import TestSupport
import XCTest

/// Each network failure is named for what happened (``PlayerError/cause``),
/// against the real fault server; and a reset on a server without Range support is recovered by
/// a reload from the start.
final class NetworkCauseTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    private func player(_ recorder: EventRecorder, timeout: UInt32 = 15) -> Player {
        Player.forTesting(recorder) { $0.networkTimeout = .seconds(timeout) }
    }

    private func warnings(_ recorder: EventRecorder) -> [PlayerError] {
        recorder.events.compactMap { if case .warning(let w) = $0 { return w } else { return nil } }
    }

    func testARefusedConnectionIsNamedAndNotRetried() throws {
        let port = try XCTUnwrap(LocalSockets.refusingTCPPort())
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load("http://127.0.0.1:\(port)/clip.mp4")
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.cause, .connectionRefused, "\(String(describing: error))")
        XCTAssertEqual(error?.message, "the connection was refused (nothing listens at 127.0.0.1:\(port))")
        XCTAssertEqual(player.refreshStatistics().networkRetries, 0, "a refusal is final: no reload")
    }

    func testHTTPSToAPlainHTTPPortIsNamedATLSFailure() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.httpsURL("/file/mp3-4s.mp3"))
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.cause, .tlsHandshakeFailed, "\(String(describing: error))")
        XCTAssertTrue(error?.message.hasPrefix("the TLS handshake with 127.0.0.1:\(server.port) failed") ?? false, "\(String(describing: error))")
        XCTAssertEqual(player.refreshStatistics().networkRetries, 0)
    }

    func testARedirectLoopIsNamedTooManyRedirects() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        _ = server.requests(clear: true)
        player.load(server.url("/redirect-loop"))
        let error = recorder.waitForValue("error", timeout: 20) { $0.error }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.cause, .tooManyRedirects, "\(String(describing: error))")
        XCTAssertEqual(error?.httpStatus, 302)
        XCTAssertTrue(error?.message.hasPrefix("too many redirects") ?? false, "\(String(describing: error))")
        XCTAssertEqual(player.refreshStatistics().networkRetries, 0)
        let requests = server.requests().filter { $0.path == "/redirect-loop" }.count
        // The first answer redirects to the URI itself: a loop at once (libsoup made 21 requests).
        // Inside playbin souphttpsrc may send one request twice (typefind's pull attempt), so ≤ 2.
        XCTAssertLessThanOrEqual(requests, 2)
        XCTAssertTrue(error?.message.hasPrefix("too many redirects: a redirect loop") ?? false, "\(String(describing: error))")
    }

    /// A chain of three redirects is followed; the cache keeps the download under the URI given.
    func testARedirectChainIsFollowedAndCachedUnderTheOriginalURI() throws {
        let directory = NSTemporaryDirectory() + "gstplay-redirect-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = MediaCache(directory: directory)
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.cache = cache })
        defer { player.shutdown() }
        _ = server.requests(clear: true)
        let uri = server.url("/redirect/2/vp8-opus-4s.webm")
        player.load(uri)
        recorder.waitFor("EOS or error", timeout: 20) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, "\(warnings(recorder))")
        XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream))
        // Hops are not loads: no `uriLoaded` for them. (1 run in about 25 also showed a reload —
        // a second `uriLoaded` after a "reconnecting once" warning — cause not found yet; the
        // chain still played and was stored. Not asserted until that is understood.)
        // A hop's request may be sent twice inside playbin, the second one even after the next hop
        // began (seen in a full run): compare the hops in the order they were first asked for.
        let paths = server.requests().map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        XCTAssertEqual(Array(paths.prefix(4)), ["/redirect/2/vp8-opus-4s.webm", "/redirect/1/vp8-opus-4s.webm",
                                                "/redirect/0/vp8-opus-4s.webm", "/file/vp8-opus-4s.webm"], "\(paths)")
        XCTAssertTrue(recorder.waitFor("stored", timeout: 10) { events in
            events.contains { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status.state == .stored } else { return false } }
        })
        XCTAssertNotNil(cache.find(uri), "kept under the URI the user gave")
    }

    /// The server drops the connection at byte 20000 and ignores Range: souphttpsrc's resume gets
    /// the whole file again (200) and fails; the Backend names that and reloads from the start.
    func testAResetOnAServerWithoutRangeIsNamedAndAnMP3ReloadsFromTheStart() {
        for cache in [false, true] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder) { configuration in
                configuration.networkTimeout = .seconds(15)
            } standard: { standard in
                if cache { standard.cache = MediaCache(directory: NSTemporaryDirectory() + "gstplay-cause-\(UUID().uuidString)") }
            }
            player.load(server.url("/reset/mp3-4s.mp3?after=20000&norange=1&key=\(UUID().uuidString)"))
            recorder.waitFor("EOS or error", timeout: 20) { events in
                events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
            }
            XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, "cache \(cache)")
            XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream), "cache \(cache)")
            let reload = warnings(recorder).filter { $0.cause == .cannotResume }
            XCTAssertEqual(reload.count, 1, "cache \(cache): \(warnings(recorder))")
            XCTAssertEqual(reload.first?.message, "the server cannot resume the download (it ignores Range requests) — downloading it again from the start")
            XCTAssertEqual(player.refreshStatistics().networkRetries, 1)
            player.shutdown()
        }
    }

    /// https to a server that accepts and never answers: souphttpsrc times out, the probe's TLS
    /// handshake times out too (not a TLS failure), and the usual reload-once policy follows.
    func testHTTPSToASilentServerIsATimeoutAfterOneReload() throws {
        let listener = try XCTUnwrap(LocalSockets.silentTCPListener())
        defer { close(listener.fd) }
        let recorder = EventRecorder()
        let player = player(recorder, timeout: 1)
        defer { player.shutdown() }
        let started = Date()
        player.load("https://127.0.0.1:\(listener.port)/clip.mp4")
        let error = recorder.waitForValue("error", timeout: 30) { $0.error }
        XCTAssertEqual(error?.cause, .timedOut, "\(String(describing: error))")
        XCTAssertEqual(player.refreshStatistics().networkRetries, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
    }

    /// Shutting down while the probe's handshake waits: no crash, no hang, no late event.
    func testShutdownWhileAProbeRunsReturnsPromptly() throws {
        let listener = try XCTUnwrap(LocalSockets.silentTCPListener())
        defer { close(listener.fd) }
        for _ in 0..<3 {
            let recorder = EventRecorder()
            let player = player(recorder, timeout: 1)
            player.load("https://127.0.0.1:\(listener.port)/clip.mp4")
            // souphttpsrc gives up after 1 s; the probe then holds the error for up to 1 s more.
            XCTAssertTrue(recorder.staysFalse(for: 1.5) { $0.contains { $0.error != nil } }, "\(recorder.events)")
            let began = Date()
            player.shutdown()
            XCTAssertLessThan(Date().timeIntervalSince(began), 3)
        }
    }
}
