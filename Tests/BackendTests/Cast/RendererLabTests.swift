import Foundation
import TestSupport
import XCTest

/// The casting tests' lab itself, checked with programs nobody here wrote: async-upnp-client's
/// `upnp-client search` finds both renderers, `upnp-client` (PyPI's async-upnp-client) makes them
/// play a URL of the TestSupport HTTP server (with Range) and seek, the sniffer sees an M-SEARCH,
/// and a lab leaves nothing behind.
final class RendererLabTests: XCTestCase {
    private func makeLab(_ side: RendererLab.ClientSide = .host) throws -> RendererLab {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: RendererLab.upnpClient),
                      "no \(RendererLab.upnpClient): run `make test-venv` (make test does)")
        let lab = try RendererLab(client: side)
        addTeardownBlock { lab.tearDown() }
        return lab
    }

    func testBothRenderersAreFoundAndGMediaRenderPlaysAndSeeksAURLWithRange() throws {
        let lab = try makeLab()
        let gmr = try lab.startGMediaRender(name: "Lab GMR")
        let rygel = try lab.startRygel()
        let found = lab.searchRenderers { Set($0.map(\.udn)) == [gmr.udn, rygel.udn] }
        XCTAssertEqual(Set(found.map(\.udn)), [gmr.udn, rygel.udn], "upnp-client search finds both")
        XCTAssertEqual(lab.describe(gmr.location)?.friendlyName, "Lab GMR")
        XCTAssertEqual(lab.describe(rygel.location)?.modelName, "Rygel")
        XCTAssertTrue(gmr.location.contains(lab.rendererAddress), gmr.location)

        let server = try HTTPTestServer(bind: "0.0.0.0")
        defer { server.stop() }
        let uri = server.url("/file/h264-aac-10s.mp4", host: lab.clientAddress)
        try lab.play(uri, on: gmr)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: gmr), "gmediarender: \(gmr.log)")
        XCTAssertTrue(gmr.waitForLog(containing: "TransportState: PLAYING", timeout: 5))
        try lab.call(gmr, "AVTransport/Seek", ["Unit": "REL_TIME", "Target": "0:00:05"])
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(250)) {
            (lab.positionInfo(gmr)?.position ?? 0) >= 5
        }, "position after the seek: \(String(describing: lab.positionInfo(gmr)))")
        let info = try XCTUnwrap(lab.positionInfo(gmr))
        XCTAssertEqual(info.uri, uri)
        XCTAssertEqual(info.duration, 10, accuracy: 1)
        XCTAssertTrue(server.requests().contains { $0.path == "/file/h264-aac-10s.mp4" && $0.range != nil && $0.status == 206 },
                      "the renderer reads with Range: \(server.requests())")
    }

    func testRygelPlaysATypedURLAndRefusesAnUntypedOne() throws {
        let lab = try makeLab()
        let rygel = try lab.startRygel()
        let server = try HTTPTestServer(bind: "0.0.0.0")
        defer { server.stop() }
        // Rygel checks the MIME type with a HEAD: application/octet-stream is refused (714).
        XCTAssertThrowsError(try lab.call(rygel, "AVTransport/SetAVTransportURI",
                                          ["CurrentURI": server.url("/file/h264-aac-10s.mp4", host: lab.clientAddress), "CurrentURIMetaData": ""])) {
            XCTAssertTrue("\($0)".contains("714"), "\($0)")
        }
        try lab.play(server.url("/file/h264-aac-10s.mp4?mime=1", host: lab.clientAddress), on: rygel)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: rygel), "rygel: \(rygel.log)")
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(250)) { (lab.positionInfo(rygel)?.position ?? 0) > 0.5 })
        XCTAssertTrue(rygel.isRunning)
    }

    func testSnifferSeesAnMSearchFromTheClientNamespaceAndNothingBefore() throws {
        let lab = try makeLab(.namespace)
        let sniffer = try SSDPSniffer(lab: lab)
        defer { sniffer.stop() }
        XCTAssertNil(sniffer.waitForPacket(timeout: 1) { _ in true }, "an idle lab carries no SSDP: \(sniffer.packets)")
        _ = lab.searchRenderers(seconds: 1)   // upnp-client search in the client namespace
        let packet = sniffer.waitForPacket(timeout: 5) { $0.start.hasPrefix("M-SEARCH") }
        XCTAssertEqual(packet?.src, lab.clientAddress)
        XCTAssertEqual(packet?.dst, "239.255.255.250")
        XCTAssertEqual(packet?.dport, 1900)
    }

    func testTearDownRemovesNamespacesAndRenderersAndStaleLabsAreRemoved() throws {
        let lab = try RendererLab(client: .namespace)
        let gmr = try lab.startGMediaRender(name: "Lab Teardown")
        let pid = gmr.process.process.processIdentifier
        let names = [lab.namespace, try XCTUnwrap(lab.clientNamespace)]
        XCTAssertTrue(names.allSatisfy(namespaceList().contains), "\(namespaceList())")
        lab.tearDown()
        XCTAssertFalse(gmr.isRunning)
        XCTAssertNotEqual(kill(pid, 0), 0)
        XCTAssertTrue(names.allSatisfy { !namespaceList().contains($0) }, "\(namespaceList())")

        // A lab whose test process is gone (pid 2^22 + 1 never exists: above pid_max's limit).
        let stale = "\(RendererLab.prefix)4194305-1"
        XCTAssertEqual(ip(["netns", "add", stale]).status, 0)
        let next = try RendererLab()
        defer { next.tearDown() }
        XCTAssertFalse(namespaceList().contains(stale), "a stale lab is removed by the next one")
    }

    private func ip(_ arguments: [String]) -> (status: Int32?, lines: [String]) {
        let child = GstplayProcess.tool(RendererLab.ip, arguments, input: .devNull)
        try? child.start()
        let status = child.waitForExit(timeout: 5)
        return (status, child.stdoutLines)
    }

    private func namespaceList() -> [String] {
        ip(["netns", "list"]).lines.map { String($0.split(separator: " ").first ?? "") }
    }
}
