@testable import BackendCast
import BackendCore
import CGUPnP
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// ``RendererControl`` against a real `gmediarender` (Debian's, in a ``RendererLab``): each
/// AVTransport/RenderingControl call does what it says on the renderer, as the renderer itself
/// and a control point nobody here wrote (`upnp-client`) report it.
final class RendererControlTests: XCTestCase {
    func testPlayPauseSeekAndStopOnGMediaRender() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Control gmr")
        defer { fixture.tearDown() }
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4", title: "Ten seconds", duration: 10), "never PLAYING:\n\(fixture.renderer.log.suffix(2000))")
        XCTAssertEqual(fixture.lab.transportState(fixture.renderer), "PLAYING", "as upnp-client sees it")
        let media = try fixture.lab.call(fixture.renderer, "AVTransport/GetMediaInfo")
        let stored = media["CurrentURIMetaData"] as? String ?? ""
        XCTAssertTrue(stored.contains("Ten seconds") && stored.contains("0:00:10"), "the DIDL-Lite the renderer kept: \(stored)")

        XCTAssertNoThrow(try fixture.call { $0.pause(completion: $1) }?.get())
        XCTAssertTrue(fixture.waitForState(.paused))

        XCTAssertNoThrow(try fixture.call { $0.seek(toSeconds: 5, completion: $1) }?.get())
        let info = try XCTUnwrap(fixture.call { $0.positionInfo(completion: $1) }?.get())
        XCTAssertEqual(try XCTUnwrap(info.position), 5, accuracy: 1, "position after a seek to the middle")
        XCTAssertEqual(try XCTUnwrap(info.duration), 10, accuracy: 0.5)
        XCTAssertEqual(info.trackURI, fixture.mediaURL("h264-aac-10s.mp4"))

        XCTAssertNoThrow(try fixture.call { $0.play(completion: $1) }?.get())
        XCTAssertTrue(fixture.waitForState(.playing))
        XCTAssertNoThrow(try fixture.call { $0.stop(completion: $1) }?.get())
        XCTAssertTrue(fixture.waitForState(.stopped))
    }

    func testVolumeAndMute() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Volume gmr")
        defer { fixture.tearDown() }
        XCTAssertNoThrow(try fixture.call { $0.setVolume(30, completion: $1) }?.get())
        XCTAssertEqual(try fixture.call { $0.volume(completion: $1) }?.get(), 30)
        XCTAssertEqual(fixture.lab.volume(fixture.renderer), 30, "as upnp-client reads it")
        XCTAssertNoThrow(try fixture.call { $0.setVolume(250, completion: $1) }?.get(), "clamped to 100")
        XCTAssertEqual(try fixture.call { $0.volume(completion: $1) }?.get(), 100)
        XCTAssertNoThrow(try fixture.call { $0.setMute(true, completion: $1) }?.get())
        XCTAssertEqual(try Self.muted(fixture), true, "as upnp-client reads it")
        XCTAssertNoThrow(try fixture.call { $0.setMute(false, completion: $1) }?.get())
        XCTAssertEqual(try Self.muted(fixture), false, "as upnp-client reads it")

        // Calls issued together reach the renderer in the order issued (gmediarender unmutes on
        // SetVolume, so a SetMute overtaken by the SetVolume before it would be undone).
        for round in 0..<5 {
            let both = fixture.loop.wait { (done: @escaping ([Result<Void, CastError>]) -> Void) in
                var results: [Result<Void, CastError>] = []
                fixture.control?.setVolume(20 + round) { results.append($0) }
                fixture.control?.setMute(true) { results.append($0); done(results) }
            }
            XCTAssertEqual(both?.count, 2, "SetVolume completed before SetMute")
            XCTAssertEqual(try Self.muted(fixture), true, "round \(round): muted after SetVolume then SetMute")
            XCTAssertNoThrow(try fixture.call { $0.setMute(false, completion: $1) }?.get())
        }
    }

    /// GUPnP 1.6 drops a NOTIFY that arrives before it has read the SUBSCRIBE's answer (no SID
    /// yet) and resubscribes at the next one (its SEQ is then "too high"), dropping that one too;
    /// seen in a packet capture of this test (2026-11-25): gmediarender's initial event came
    /// 0.2 ms after its SUBSCRIBE answer, GUPnP sent UNSUBSCRIBE + SUBSCRIBE after SEQ 1. A
    /// transport state event late by ``RendererControl/eventGrace`` is confirmed by one
    /// `GetTransportInfo` (the next test forces it), so the handler hears every state.
    func testLastChangeEventsReportTheTransportState() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Events gmr")
        defer { fixture.tearDown() }
        let changes = LastChanges()
        fixture.loop.sync { fixture.control?.subscribeLastChange { changes.record($0) } }
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4"))
        XCTAssertNotNil(changes.wait { $0.transportState == .playing }, "no LastChange with PLAYING: \(changes.all)")
        XCTAssertNotNil(changes.wait { $0.trackURI == fixture.mediaURL("h264-aac-10s.mp4") }, "no CurrentTrackURI: \(changes.all)")
        XCTAssertNoThrow(try fixture.call { $0.pause(completion: $1) }?.get())
        XCTAssertNotNil(changes.wait { $0.transportState == .paused }, "no LastChange with PAUSED_PLAYBACK: \(changes.all)")
        let confirmed = fixture.loop.sync { fixture.control?.confirmations ?? 0 }
        print("LastChange: \(changes.all.count) changes, \(confirmed) of them asked for (events GUPnP dropped or late)")
        // (RenderingControl's LastChange, Volume, is not checked: gmediarender's libupnp sometimes never
        // delivers that service's initial event, seen in 2 of 22 runs; GUPnP then drops the later ones.)
        fixture.loop.sync { fixture.control?.unsubscribeLastChange() }
    }

    /// The events lost for good (GUPnP unsubscribed behind the control's back, so nothing comes):
    /// the handler still hears PLAYING after Play and PAUSED_PLAYBACK after Pause, from one
    /// `GetTransportInfo` asked when the event was late.
    func testLateTransportEventIsConfirmedByGetTransportInfo() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Silent gmr")
        defer { fixture.tearDown() }
        let changes = LastChanges()
        fixture.loop.sync {
            guard let control = fixture.control else { return }
            control.subscribeLastChange { changes.record($0) }
            gupnp_service_proxy_set_subscribed(control.avTransport, 0)   // no AVTransport event arrives from now on
        }
        let began = Date()
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4"))
        XCTAssertNotNil(changes.wait(timeout: 5) { $0.transportState == .playing }, "no PLAYING: \(changes.all)")
        XCTAssertLessThan(Date().timeIntervalSince(began), 5, "within the grace after Play")
        XCTAssertNoThrow(try fixture.call { $0.pause(completion: $1) }?.get())
        XCTAssertNotNil(changes.wait(timeout: 5) { $0.transportState == .paused }, "no PAUSED_PLAYBACK: \(changes.all)")
        fixture.loop.sync { fixture.control?.unsubscribeLastChange() }
    }

    /// A SUBSCRIBE GUPnP sends by itself (as after a missed SEQ) whose initial event never
    /// reaches the handler: the state the renderer took meanwhile (paused by another control
    /// point) is asked for and handed over.
    func testResubscriptionWithoutItsInitialEventIsConfirmed() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Resubscribed gmr")
        defer { fixture.tearDown() }
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4"))
        let changes = LastChanges()
        fixture.loop.sync { fixture.control?.subscribeLastChange { changes.record($0) } }
        XCTAssertNotNil(changes.wait(timeout: 5) { $0.transportState == .playing }, "no PLAYING: \(changes.all)")
        fixture.loop.sync {   // GUPnP's notify callbacks gone and unsubscribed: no event reaches the handler
            for subscription in fixture.control?.lastChange ?? [] { subscription.cancel() }
        }
        try fixture.lab.call(fixture.renderer, "AVTransport/Pause")     // not through the control: no command to wait on
        XCTAssertTrue(fixture.lab.waitForTransportState("PAUSED_PLAYBACK", on: fixture.renderer))
        let mark = changes.all.count
        fixture.loop.sync {
            guard let control = fixture.control else { return }
            gupnp_service_proxy_set_subscribed(control.avTransport, 1)   // GUPnP subscribes again by itself
        }
        let paused = changes.wait(after: mark, timeout: 5) { $0.transportState == .paused }
        XCTAssertNotNil(paused, "no PAUSED_PLAYBACK after the resubscription: \(changes.all.dropFirst(mark))")
        XCTAssertEqual(paused?.trackURI, fixture.mediaURL("h264-aac-10s.mp4"), "the track, as GetPositionInfo says")
        fixture.loop.sync { fixture.control?.unsubscribeLastChange() }
    }

    func testStoppedRendererTimesOutAndKilledRendererIsGone() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Dying gmr", timeout: .seconds(2))
        defer { fixture.tearDown() }
        let pid = fixture.renderer.process.process.processIdentifier
        kill(pid, SIGSTOP)   // answers nothing; the kernel still accepts its connections
        XCTAssertTrue(eventually { Self.allThreadsStopped(pid) }, "gmediarender's threads did not stop")
        var began = Date()
        // Three calls at once: one on the wire, two waiting their turn; each ends by its own deadline.
        let stalled = fixture.loop.wait(timeout: 10) { (done: @escaping ([CastError?]) -> Void) in
            var errors: [CastError?] = []
            fixture.control?.transportInfo { errors.append(Self.error($0)) }
            fixture.control?.positionInfo { errors.append(Self.error($0)) }
            fixture.control?.setVolume(10) { errors.append(Self.error($0)); done(errors) }
        }
        XCTAssertEqual(stalled, [.timeout, .timeout, .timeout])
        let waited = Date().timeIntervalSince(began)
        XCTAssertGreaterThanOrEqual(waited, 1.9, "not before the calls' 2 s deadline")
        XCTAssertLessThan(waited, 3.5, "at the calls' 2 s deadline (slack for a loaded machine)")

        // Killed while a call waits for it: the call ends at once, before its deadline.
        let control = try XCTUnwrap(fixture.control)
        let pending = fixture.loop.begin { done in control.positionInfo(completion: done) }
        Thread.sleep(forTimeInterval: 0.3)
        began = Date()
        fixture.renderer.kill()
        let midCall = pending(10).map { Self.error($0) }
        XCTAssertEqual(midCall, .gone)
        XCTAssertLessThan(Date().timeIntervalSince(began), 1, "gone before the deadline")

        began = Date()
        XCTAssertEqual(fixture.call(timeout: 10) { $0.play(completion: $1) }.map { Self.error($0) }, .gone, "later calls")
        XCTAssertLessThan(Date().timeIntervalSince(began), 1)
    }

    func testSOAPFaultIsARendererErrorWithItsCode() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Empty gmr")
        defer { fixture.tearDown() }
        // Play with no URI set: gmediarender answers the SOAP fault 501 "Playing failed".
        let result = fixture.call { $0.play(completion: $1) }
        guard case .failure(.renderer(let code, let text))? = result else { return XCTFail(String(describing: result)) }
        XCTAssertEqual(code, 501)
        XCTAssertEqual(text, "Playing failed")
        XCTAssertTrue(fixture.play("h264-aac-10s.mp4"), "the control still works after a fault")
    }

    func testSetNextURIOnGMediaRender() throws {
        let fixture = try CastLabFixture(.gmediarender, name: "Next gmr")
        defer { fixture.tearDown() }
        XCTAssertTrue(fixture.play("vp8-opus-4s.webm", mimeType: "video/webm"))
        let next = fixture.mediaURL("colour-steps-4s.webm")
        let metadata = CastMetadata(title: "Next", duration: 4, mimeType: "video/webm")
        XCTAssertNoThrow(try fixture.call { $0.setNextURI(next, metadata: metadata, completion: $1) }?.get())
        XCTAssertTrue(fixture.renderer.waitForLog(containing: next, timeout: 10), "the renderer never took the next URI")
    }

    /// Every thread of `pid` in state `T` (`/proc/PID/task/TID/stat`): a stop signal is delivered
    /// to each thread on its own, so a busy one may still answer a moment after `kill`.
    static func allThreadsStopped(_ pid: pid_t) -> Bool {
        let probe = ProcessProbe(pid: pid)
        guard let threads = probe.threadIDs, !threads.isEmpty else { return false }
        return threads.allSatisfy { tid in
            guard let stat = ProcFS.read("/proc/\(pid)/task/\(tid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first == "T"
        }
    }

    /// `RenderingControl/GetMute` through upnp-client.
    static func muted(_ fixture: CastLabFixture) throws -> Bool? {
        let value = try fixture.lab.call(fixture.renderer, "RenderingControl/GetMute", ["Channel": "Master"])["CurrentMute"]
        return (value as? Bool) ?? (value as? Int).map { $0 != 0 }
    }

    static func error<T>(_ result: Result<T, CastError>) -> CastError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// LastChange reports from the loop thread, waited for on the test thread.
final class LastChanges: @unchecked Sendable {
    private let condition = NSCondition()
    private var changes: [LastChange] = []

    func record(_ change: LastChange) {
        condition.lock(); changes.append(change); condition.broadcast(); condition.unlock()
    }

    var all: [LastChange] { condition.lock(); defer { condition.unlock() }; return changes }

    /// The first report after the first `mark` ones satisfying `predicate`, waiting up to `timeout` for it.
    func wait(after mark: Int = 0, timeout: TimeInterval = 10, _ predicate: (LastChange) -> Bool) -> LastChange? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while true {
            if let match = changes.dropFirst(mark).first(where: predicate) { return match }
            if !condition.wait(until: deadline) { return changes.dropFirst(mark).first(where: predicate) }
        }
    }
}
