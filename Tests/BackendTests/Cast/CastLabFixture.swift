@testable import BackendCast
import BackendCore
import Foundation
import TestSupport
import XCTest

/// One renderer in a ``RendererLab`` (gmediarender or Rygel's playbin renderer), found by a
/// ``RendererDiscovery`` on the lab's interface, a ``RendererControl`` for it, and the HTTP test
/// server (Range, real MIME types) listening on the lab's address, all on a ``CastTestLoop``.
final class CastLabFixture {
    let lab: RendererLab
    let renderer: LabRenderer
    let loop = CastTestLoop()
    let server: HTTPTestServer
    let found: Renderer
    let discovery: RendererDiscovery
    private(set) var control: RendererControl?

    /// `name`: gmediarender's friendly name (Rygel keeps its own, `Audio/Video playback on <host>`).
    init(_ kind: LabRenderer.Kind, name: String, timeout: Duration = .seconds(5)) throws {
        lab = try RendererLab()
        do {
            renderer = kind == .gmediarender ? try lab.startGMediaRender(name: name) : try lab.startRygel()
            server = try HTTPTestServer(bind: lab.clientAddress)
        } catch {
            lab.tearDown()
            throw error
        }
        let lists = RendererLists()
        let interface = lab.clientInterface
        discovery = loop.startDiscovery(on: [interface], recordingInto: lists)
        let udn = renderer.udn
        guard let found = lists.wait(timeout: 15, { $0.contains { $0.udn == udn } })?.first(where: { $0.udn == udn }) else {
            let discovery = discovery
            loop.sync { discovery.stop() }
            server.stop()
            lab.tearDown()
            throw NSError(domain: "CastLabFixture", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name) was not discovered"])
        }
        self.found = found
        let discovery = discovery
        control = loop.sync { discovery.makeControl(for: found, timeout: timeout) }
    }

    /// A fixture's URL on the lab's HTTP server, with its real Content-Type.
    func mediaURL(_ fixture: String) -> String { server.url("/file/\(fixture)?mime=1", host: lab.clientAddress) }

    /// Runs one control call on the loop thread and waits for its completion (at most `timeout`).
    func call<T>(timeout: TimeInterval = 15, _ body: @escaping (RendererControl, @escaping (Result<T, CastError>) -> Void) -> Void)
        -> Result<T, CastError>? {
        guard let control else { return nil }
        return loop.wait(timeout: timeout) { done in body(control, done) }
    }

    /// Asks `GetTransportInfo` until the state is `state` (every 100 ms, at most `timeout`): a
    /// renderer announces its state only to subscribers, so this asks.
    func waitForState(_ state: TransportState, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if case .success(let info)? = call({ $0.transportInfo(completion: $1) }), info.state == state { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// Loads `fixture` and plays it; true once the renderer says PLAYING.
    func play(_ fixture: String, title: String = "Test item", duration: Double? = nil, mimeType: String = "video/mp4") -> Bool {
        let uri = mediaURL(fixture)
        let metadata = CastMetadata(title: title, duration: duration, mimeType: mimeType)
        guard case .success? = call({ $0.setURI(uri, metadata: metadata, completion: $1) }),
              case .success? = call({ $0.play(completion: $1) }) else { return false }
        return waitForState(.playing)
    }

    /// Releases the control and the discovery on the loop thread, stops the server and the lab.
    func tearDown() {
        let discovery = discovery
        loop.sync { self.control = nil; discovery.stop() }
        server.stop()
        lab.tearDown()
    }
}
