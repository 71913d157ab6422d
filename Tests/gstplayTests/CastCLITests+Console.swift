import Foundation
import TestSupport
import XCTest

/// The casting console and JSON surface against real renderers: `renderers` starts discovery,
/// `renderers` events as renderers appear and leave, `cast <N>` picks one of the list, a number
/// out of range is an error reply, `cast off` comes back.
extension CastCLITests {
    func testConsoleRenderersThenCastByNumberAndRenderersEventsAsOneLeaves() throws {
        let lab = try makeLab()
        let gmr = try lab.startGMediaRender(name: "Console GMR")
        let rygel = try lab.startRygel()
        let child = try lab.gstplay(["--json", "--cast-interface", lab.clientInterface, TestMedia.h264]).started()
        defer { child.send("quit"); _ = child.waitForExit(timeout: 10) }
        XCTAssertNotNil(child.waitForJSON(timeout: 10, event("position")), child.stderr)
        XCTAssertFalse(child.stdoutLines.compactMap(jsonObject).contains(where: event("renderers")), "no discovery before it is asked for")

        child.send(#"{"command":"renderers","request_id":1}"#)
        XCTAssertNotNil(child.waitForJSON(timeout: 10) { $0["request_id"] as? Int == 1 && $0["error"] as? String == "success" })
        func udns(_ object: [String: Any]) -> [String] { (object["renderers"] as? [[String: Any]] ?? []).compactMap { $0["udn"] as? String } }
        let both = child.waitForJSON(timeout: 20) { [self] in event("renderers")($0) && Set(udns($0)) == [gmr.udn, rygel.udn] }
        let list = try XCTUnwrap(both, "a renderers event with both: \(child.stdout.suffix(800))")
        let index = try XCTUnwrap(udns(list).firstIndex(of: rygel.udn))

        child.send(#"{"command":["cast","7"],"request_id":2}"#)
        let refused = child.waitForJSON(timeout: 10) { $0["request_id"] as? Int == 2 }
        XCTAssertNotEqual(refused?["error"] as? String, "success", "cast 7: no such renderer")

        let mark = child.stdoutLines.count
        child.send("cast \(index)")
        XCTAssertEqual(child.waitForJSON(after: mark, timeout: 20, event("cast-started"))?["udn"] as? String, rygel.udn)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: rygel), rygel.log)
        XCTAssertNotEqual(lab.transportState(gmr), "PLAYING", "only the one asked for plays")

        let leaving = child.stdoutLines.count
        // SIGTERM: gmediarender says byebye (killed after the grace: none).
        XCTAssertTrue(gmr.stop(), "gmediarender did not exit on SIGTERM (killed, so no byebye): \(gmr.log.suffix(600))")
        XCTAssertNotNil(child.waitForJSON(after: leaving, timeout: 20) { [self] in event("renderers")($0) && udns($0) == [rygel.udn] },
                        "the renderers event after one left: \(child.stdout.suffix(600))")

        let off = child.stdoutLines.count
        child.send("cast off")
        XCTAssertNotNil(child.waitForJSON(after: off, timeout: 20, event("cast-ended")))
    }
}
