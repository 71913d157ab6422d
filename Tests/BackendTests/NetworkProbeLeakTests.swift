@testable import BackendCore
import Backend
import Foundation
import Glibc
import TestSupport
import XCTest

/// The ``ConnectionProbe`` paths leave nothing behind: refused connections, a TLS handshake
/// against the plain-HTTP port, and a shutdown while a probe's handshake waits. After a warm-up
/// round (GLib's and glib-networking's pools start), further rounds must bring this process's
/// threads and descriptors back near the baseline (`/proc` through `ResourceBaseline`), the same
/// tolerances as `WholeProcessLeakCheckTests`.
final class NetworkProbeLeakTests: XCTestCase {
    private static let rounds = 3

    func testProbesLeaveNoThreadsOrDescriptors() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let listener = try XCTUnwrap(LocalSockets.silentTCPListener())
        defer { close(listener.fd) }
        let refused = try XCTUnwrap(LocalSockets.refusingTCPPort())
        try ResourceBaseline.assertRoundsLeaveNothing(rounds: Self.rounds) {
            try round(server, refused: refused, silent: listener.port)
        }
    }

    /// One player: a refused URL and https to the plain port (both probed, named), then an
    /// https URL to a silent server, shut down while its probe waits.
    private func round(_ server: HTTPTestServer, refused: Int, silent: Int) throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(1) }
        for (uri, cause) in [("http://127.0.0.1:\(refused)/x.mp4", PlayerError.Cause.connectionRefused),
                             (server.httpsURL("/file/mp3-4s.mp3"), .tlsHandshakeFailed)] {
            let mark = recorder.count
            player.load(uri)
            let error = recorder.waitForValue("error for \(uri)", after: mark) { $0.error }
            XCTAssertEqual(error?.cause, cause, uri)
        }
        let mark = recorder.count
        player.load("https://127.0.0.1:\(silent)/x.mp4")
        // souphttpsrc gives up after 1 s; its probe then waits up to 1 s more: shut down inside.
        XCTAssertTrue(recorder.staysFalse(for: 1.5) { $0.dropFirst(mark).contains { $0.error != nil } })
        player.shutdown()
    }
}
