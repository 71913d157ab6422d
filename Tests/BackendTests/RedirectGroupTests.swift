@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// A followed redirect starts the next hop from fresh source groups, like any load after one that
/// never prerolled (``Engine/load(_:original:start:)``): the 3xx attempt failed, and going back
/// only to READY kept its source group and `uridecodebin` in playbin, to be deactivated and
/// reused by the next READY→PAUSED under playbin's locks — the state-change pattern that
/// deadlocked bursts of loads (docs/RELIABILITY.md §16).
final class RedirectGroupTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    /// The `uridecodebin`s playbin adds, in order (its `element-added` signal: playbin adds a
    /// group's `uridecodebin` each time it activates the group, a reused one again).
    private final class Added: @unchecked Sendable {
        private let lock = NSLock()
        private var elements: [String] = []
        func append(_ element: String) { lock.lock(); elements.append(element); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return elements }
    }

    private func watchURIDecodeBins(_ player: Player) -> Added {
        let added = Added()
        player.withEngine { engine in
            guard let playbin = engine.pipeline?.element else { return }
            let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?, UnsafeMutableRawPointer?) -> Void = { _, element, data in
                guard let element, let data,
                      let name = String(takingGLibString: gst_object_get_name(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self))),
                      name.hasPrefix("uridecodebin") else { return }
                Unmanaged<Added>.fromOpaque(data).takeUnretainedValue().append(name)   // unique: a freed element's address is not
            }
            g_signal_connect_data(UnsafeMutableRawPointer(playbin), "element-added", unsafeBitCast(callback, to: GCallback.self),
                                  Unmanaged.passRetained(added).toOpaque(), { data, _ in
                                      if let data { Unmanaged<Added>.fromOpaque(data).release() }
                                  }, GConnectFlags(0))
        }
        return added
    }

    /// Before: the third hop reused the `uridecodebin` of the first (failed) one; now each hop
    /// has its own.
    func testEachRedirectHopStartsFromAFreshSourceGroup() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        let added = watchURIDecodeBins(player)
        player.load(server.url("/redirect/2/vp8-opus-4s.webm"))
        recorder.waitFor("playing or error", timeout: 30) { events in
            events.contains { $0.error != nil } || events.contains { if case .stateChanged(_, .playing) = $0 { return true } else { return false } }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        let elements = added.all
        XCTAssertGreaterThanOrEqual(elements.count, 3, "one per hop: \(elements)")
        XCTAssertEqual(Set(elements).count, elements.count, "no hop reuses an earlier hop's uridecodebin: \(elements)")
    }
}
