@testable import BackendCast
import BackendCore
import Foundation
import TestSupport
import XCTest

/// ``RendererDiscovery`` against a real `gmediarender` in a ``RendererLab`` network namespace:
/// it appears with what its description and `GetProtocolInfo` say, and leaves on its byebye.
final class RendererDiscoveryTests: XCTestCase {
    func testFindsGMediaRenderWithItsDescriptionAndProtocols() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Discovery gmr")
        let loop = CastTestLoop()
        let lists = RendererLists()
        let discovery = loop.startDiscovery(on: [lab.clientInterface], recordingInto: lists)
        defer { loop.sync { discovery.stop() } }

        let list = try XCTUnwrap(lists.wait { $0.contains { $0.udn == renderer.udn } }, "gmediarender not listed")
        let found = try XCTUnwrap(list.first { $0.udn == renderer.udn })
        XCTAssertEqual(found.friendlyName, "Discovery gmr")
        XCTAssertEqual(found.location, renderer.location)
        XCTAssertEqual(found.hostAddress, lab.clientAddress, "the address of the interface that reached it")
        XCTAssertEqual(found.model, lab.describe(renderer.location)?.modelName)
        // gmediarender lists its GStreamer decoders' caps names (MP4 as video/quicktime).
        for sink in ["http-get:*:video/quicktime:*", "http-get:*:video/webm:*", "http-get:*:audio/mpeg:*"] {
            XCTAssertTrue(found.protocols.contains(sink), "\(sink) not in the Sink list: \(found.protocols)")
        }
        XCTAssertEqual(loop.sync { discovery.renderers }, list, "the list onChange gave is the discovery's list")
    }

    func testRendererLeavesTheListOnItsByebye() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Byebye gmr")
        let loop = CastTestLoop()
        let lists = RendererLists()
        let discovery = loop.startDiscovery(on: [lab.clientInterface], recordingInto: lists)
        defer { loop.sync { discovery.stop() } }
        let found = try XCTUnwrap(lists.wait { $0.contains { $0.udn == renderer.udn } }?.first, "gmediarender not listed")
        nonisolated(unsafe) var control = loop.sync { discovery.makeControl(for: found) }
        defer { loop.sync { control = nil } }
        XCTAssertEqual(loop.sync { control?.isGone }, false)

        let stoppedAt = Date()
        // SIGTERM: libupnp unregisters the device with ssdp:byebye (killed after the grace: none).
        XCTAssertTrue(renderer.stop(), "gmediarender did not exit on SIGTERM (killed, so no byebye): \(renderer.log.suffix(600))")
        XCTAssertNotNil(lists.wait(timeout: 10) { !$0.contains { $0.udn == renderer.udn } }, "still listed after its byebye")
        XCTAssertLessThan(Date().timeIntervalSince(stoppedAt), 20, "SIGTERM (up to stop()'s 10 s grace) to leaving the list")
        XCTAssertEqual(loop.sync { discovery.renderers.count }, 0)
        XCTAssertNil(loop.sync { discovery.makeControl(for: found) }, "no control for a renderer that left")

        // The control made before is told: its calls fail with .gone, never inline.
        XCTAssertEqual(loop.sync { control?.isGone }, true)
        let result = loop.wait { (done: @escaping ((Result<Void, CastError>, Bool)) -> Void) in
            var returned = false
            control?.play { done(($0, returned)) }
            returned = true
        }
        XCTAssertEqual(result.map { RendererControlTests.error($0.0) }, .gone)
        XCTAssertEqual(result?.1, true, "the completion ran after play(completion:) returned")
    }

    func testOnlyTheGivenInterfaceIsBrowsed() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Filtered gmr")
        let loop = CastTestLoop()
        let lists = RendererLists()
        let discovery = loop.startDiscovery(on: ["lo"], recordingInto: lists)   // the renderer is not reachable there
        defer { loop.sync { discovery.stop() } }
        XCTAssertNil(lists.wait(timeout: 3) { $0.contains { $0.udn == renderer.udn } }, "found through another interface")
        loop.sync { discovery.stop(); discovery.start(interfaces: [lab.clientInterface]) }
        XCTAssertNotNil(lists.wait { $0.contains { $0.udn == renderer.udn } }, "a restart on the lab's interface finds it")
    }

    /// ``RendererDiscovery/drop(_:)`` (a cast's calls found the renderer unreachable): off the list
    /// at once; one that still answers SSDP is listed again by the new control point's search.
    /// Another renderer found through the replaced control point stays listed, and its byebye
    /// still takes it off (it adopted the new point's proxy).
    func testADroppedRendererThatStillAnswersIsListedAgainAndTheOthersByebyeStillCounts() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let other = try lab.startGMediaRender(name: "Other gmr")   // its SIGTERM sends ssdp:byebye
        let dropped = try lab.startRygel()
        let loop = CastTestLoop()
        let lists = RendererLists()
        let discovery = loop.startDiscovery(on: [lab.clientInterface], recordingInto: lists)
        defer { loop.sync { discovery.stop() } }
        XCTAssertNotNil(lists.wait { Set($0.map(\.udn)) == [dropped.udn, other.udn] }, "both listed: \(lists.latest.map(\.friendlyName))")

        let droppedAt = Date()
        loop.sync { discovery.drop(dropped.udn) }
        XCTAssertEqual(lists.latest.map(\.udn), [other.udn], "off the list at once, the other one kept")
        XCTAssertNotNil(lists.wait(timeout: 10) { $0.contains { $0.udn == dropped.udn } }, "not listed again after the rescan")
        XCTAssertLessThan(Date().timeIntervalSince(droppedAt), 10)

        other.stop()   // SIGTERM: ssdp:byebye, seen by the new control point
        XCTAssertNotNil(lists.wait(timeout: 10) { $0.map(\.udn) == [dropped.udn] }, "after the other's byebye: \(lists.latest.map(\.friendlyName))")
    }
}
