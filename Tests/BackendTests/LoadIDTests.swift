@testable import BackendCore
import Backend
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Events have identity on real pipelines: every event carries the ID of the
/// load it belongs to — on the stream, in ``PlayerEventRecord``s and to the delegate — and a
/// gapless hand-over, a queue item and a load a feature deferred each begin one new ID.
final class LoadIDTests: XCTestCase {
    func testLoadAsyncReturnsTheIDItsEventsCarry() async throws {
        let player = Player.forTesting { $0.autoplay = false }
        defer { player.shutdown() }
        let records = player.records
        let first = try await player.loadAsync(TestMedia.h264)
        let second = try await player.loadAsync(TestMedia.vp8)
        XCTAssertEqual(second.rawValue, first.rawValue + 1, "one new ID per load")
        var uriLoads: [(LoadID?, String)] = []
        var initialized: [LoadID?] = []
        for await record in records {
            if case .initialized = record.event { initialized.append(record.loadID) }
            if case .uriLoaded(let uri) = record.event { uriLoads.append((record.loadID, uri)) }
            if case .mediaInfo(let info) = record.event, info.uri.hasSuffix("vp8-opus-4s.webm") { break }
        }
        XCTAssertEqual(initialized, [nil], "events before the first load carry no load ID")
        XCTAssertEqual(uriLoads.map(\.0), [first, second])
        XCTAssertTrue(uriLoads.last?.1.hasSuffix("vp8-opus-4s.webm") ?? false)
    }

    func testAGaplessHandOverBeginsANewLoadID() async throws {
        let player = Player.forTesting { $0.autoplay = false }
        defer { player.shutdown() }
        let first = try await player.loadAsync(TestMedia.vp8)
        let records = player.records
        // What a queue feature does when the next item it handed to playbin reaches the sinks.
        let next = try MediaLocation.uri(for: TestMedia.theora)
        player.command { engine in engine.context.transport.continueWithHandedOverMedia(uri: next, stalePositionsFrom: nil) }
        var handedOver: PlayerEventRecord?
        for await record in records {
            if case .uriLoaded(next) = record.event { handedOver = record; break }
        }
        XCTAssertEqual(handedOver?.loadID, LoadID(rawValue: first.rawValue + 1))
        let third = try await player.loadAsync(TestMedia.h264)
        XCTAssertEqual(third.rawValue, first.rawValue + 2)
    }

    func testEachQueueItemGetsItsOwnLoadIDAlsoWhenHandedOverGaplessly() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let records = player.records
        let items = try ["gapless-440.ogg", "gapless-660.ogg"].map { QueueItem(uri: try MediaLocation.uri(for: TestMedia.path($0))) }
        try player.setQueue(items)
        var uriLoads: [LoadID?] = []
        var endID: LoadID?
        var opened = 0
        for await record in records {
            if case .uriLoaded = record.event { uriLoads.append(record.loadID) }
            if case .stateChanged(_, .opening) = record.event { opened += 1 }
            if case .endOfStream = record.event { endID = record.loadID; break }
        }
        XCTAssertEqual(opened, 1, "gapless: one load, the second item handed over")
        XCTAssertEqual(uriLoads.count, 2, "two items")
        XCTAssertEqual(Set(uriLoads.compactMap { $0 }).count, 2, "a new ID for the item handed over gaplessly: \(uriLoads)")
        XCTAssertEqual(endID, uriLoads.last ?? nil, "the end belongs to the last item")
    }

    /// A feature whose URI resolver makes the first load wait (``LoadDecision/wait``) and loads it
    /// again itself on the next loop dispatch, as the media cache does while it revalidates a copy.
    private final class DeferringFeature: PlayerFeature, URIResolver {
        private var context: FeatureContext?   // loop thread, like the feature
        /// Read by the test's thread too.
        let deferred = Mutex(0)

        func attach(to context: FeatureContext) {
            self.context = context
            context.provideURIResolver(self, order: ExtensionOrder(0))
        }

        func resolve(_ uri: String) -> LoadDecision {
            guard uri.hasPrefix("file:"), deferred.withLock({ $0 == 0 }), let context else { return .play(uri) }
            deferred.withLock { $0 += 1 }
            context.runOnLoop { context.transport.load(uri) }
            return .wait
        }
    }

    func testALoadAFeatureDefersIsWaitedForNotFailedWithThePreviousError() async throws {
        let feature = DeferringFeature()
        let player = Player(configuration: .fakeSinks(sync: true), features: [feature])
        defer { player.shutdown() }
        await player.assertLoadFails("", kind: .invalidInput)
        let id = try await player.loadAsync(TestMedia.vp8)       // deferred once, after a failed load
        XCTAssertEqual(feature.deferred.withLock { $0 }, 1)
        XCTAssertEqual(id, LoadID(rawValue: 2), "the failed load was the first; the deferred one began once")
        XCTAssertEqual(player.snapshot.lastError, nil)
    }

    func testTheDelegateGetsEachEventWithItsLoadID() async throws {
        final class Delegate: PlayerDelegate, Sendable {
            let seen = Arrivals<(LoadID?, PlayerEvent)>()
            func player(_ player: Player, didReceive event: PlayerEvent, loadID: LoadID?) { seen.append((loadID, event)) }
        }
        let delegate = Delegate()
        let player = Player.forTesting(delegate) { $0.autoplay = false }
        defer { player.shutdown() }
        let id = try await player.loadAsync(TestMedia.vp8)
        let loaded = delegate.seen.wait { $0.contains { if case .mediaInfo = $0.1 { return true } else { return false } } }
        XCTAssertTrue(loaded)
        let seen = delegate.seen.all
        let uriLoaded = seen.first { if case .uriLoaded = $0.1 { return true } else { return false } }
        XCTAssertEqual(uriLoaded?.0, id)
        XCTAssertEqual(seen.first?.0, nil, "initialized comes before any load")
    }
}
