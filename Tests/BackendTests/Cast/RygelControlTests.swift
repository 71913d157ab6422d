@testable import BackendCast
import BackendCore
import Foundation
import TestSupport
import XCTest

/// ``RendererControl`` against Rygel's playbin MediaRenderer (GUPnP's own renderer side, a
/// second implementation beside gmediarender), and a SOAP fault mapped to its UPnP code.
final class RygelControlTests: XCTestCase {
    func testPlayPauseSeekOnRygel() throws {
        let fixture = try CastLabFixture(.rygel, name: "Control rygel")
        defer { fixture.tearDown() }
        XCTAssertEqual(fixture.found.model, "Rygel")
        XCTAssertTrue(fixture.found.friendlyName.hasPrefix("Audio/Video playback on "), fixture.found.friendlyName)
        XCTAssertTrue(fixture.found.protocols.contains { $0.hasPrefix("http-get:*:video/mp4:") }, "\(fixture.found.protocols)")
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4", title: "Ten seconds", duration: 10), "never PLAYING:\n\(fixture.renderer.log.suffix(2000))")
        XCTAssertNoThrow(try fixture.call { $0.pause(completion: $1) }?.get())
        XCTAssertTrue(fixture.waitForState(.paused))
        XCTAssertNoThrow(try fixture.call { $0.seek(toSeconds: 5, completion: $1) }?.get())
        XCTAssertTrue(waitForPosition(fixture, near: 5), "position after a seek to the middle")
        XCTAssertNoThrow(try fixture.call { $0.setVolume(25, completion: $1) }?.get())
        XCTAssertEqual(try fixture.call { $0.volume(completion: $1) }?.get(), 25)
        XCTAssertNoThrow(try fixture.call { $0.stop(completion: $1) }?.get())
        XCTAssertTrue(fixture.waitForState(.stopped))
    }

    func testRefusedFormatIsARendererError() throws {
        let fixture = try CastLabFixture(.rygel, name: "Refusing rygel")
        defer { fixture.tearDown() }
        // Without mime=1 the server says application/octet-stream, which a DLNA renderer refuses.
        let uri = fixture.server.url("/file/h264-aac-10s.mp4", host: fixture.lab.clientAddress)
        let metadata = CastMetadata(title: "Opaque", mimeType: "application/octet-stream")
        let result = fixture.call { $0.setURI(uri, metadata: metadata, completion: $1) }
        guard case .failure(.renderer(let code, let text))? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(code, 714, text)
    }

    /// Asks GetPositionInfo until the position is within 1 s of `seconds` (at most 5 s).
    private func waitForPosition(_ fixture: CastLabFixture, near seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if case .success(let info)? = fixture.call({ $0.positionInfo(completion: $1) }),
               let position = info.position, abs(position - seconds) <= 1 { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}
