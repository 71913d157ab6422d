@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import Synchronization
import TestSupport
import XCTest

extension PlayerEvent {
    /// The index and item of a ``QueueEvent/itemUpdated(index:item:)``.
    var itemUpdate: (index: Int, item: QueueItem)? {
        if case .itemUpdated(let index, let item)? = payload(as: QueueEvent.self) { return (index, item) } else { return nil }
    }
    /// The index and id of a ``QueueEvent/itemSkipped(index:id:error:)``.
    var itemSkip: (index: Int, id: Int, error: PlayerError)? {
        if case .itemSkipped(let index, let id, let error)? = payload(as: QueueEvent.self) { return (index, id, error) } else { return nil }
    }
}

/// The queue's background discovery (GstDiscoverer) on real fixtures.
final class QueueDiscoveryTests: XCTestCase {
    private func item(_ path: String) -> QueueItem { QueueItem(uri: try! MediaLocation.uri(for: path)) }

    func testEveryItemIsDiscoveredNearestFirstBeforeTheSecondPlays() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue([item(TestMedia.audioOnly), item(TestMedia.vp8), item(TestMedia.path("mp3-4s.mp3"))])
        recorder.waitFor("three items discovered", timeout: 10) { $0.compactMap(\.itemUpdate).count >= 3 }
        let updates = recorder.events.compactMap(\.itemUpdate)
        XCTAssertEqual(updates.map(\.index), [0, 1, 2], "nearest the current item (0) first")
        XCTAssertFalse(recorder.events.contains { $0.itemChange != nil }, "all known before the second item plays")
        for update in updates {
            let duration = try XCTUnwrap(update.item.knownDuration, "\(update.item.uri)")
            XCTAssertEqual(duration.seconds, 4, accuracy: 0.15, update.item.uri)
            XCTAssertEqual(update.item.info?.isPlayable, true)
        }
        XCTAssertEqual(updates.map { $0.item.info?.hasVideo }, [false, true, false])
        XCTAssertEqual(updates.map { $0.item.info?.hasAudio }, [true, true, true])
        let queue = await player.currentQueue()
        XCTAssertEqual(queue.knownDurationCount, 3)
        XCTAssertEqual(queue.totalDuration.seconds, 12, accuracy: 0.4)
    }

    /// No discoverer runs while the player opens an item: the first result comes after the
    /// current item's media info (published at its preroll), so start-up runs one pipeline.
    func testDiscoveryWaitsForTheItemThePlayerOpensToPreroll() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue([item(TestMedia.vp8), item(TestMedia.audioOnly), item(TestMedia.path("mp3-4s.mp3"))])
        recorder.waitFor("three items discovered", timeout: 10) { $0.compactMap(\.itemUpdate).count >= 3 }
        let events = recorder.events
        let prerolled = try XCTUnwrap(events.firstIndex { if case .mediaInfo = $0 { return true } else { return false } }, "\(events)")
        let firstResult = try XCTUnwrap(events.firstIndex { $0.itemUpdate != nil })
        XCTAssertLessThan(prerolled, firstResult, "the first item's preroll comes before any discovery result")
    }

    /// The item playing is described by the player at its preroll (duration, streams, tags), not
    /// by a second pipeline reading the same file: a one-item queue runs no discoverer at all.
    func testTheItemPlayingIsDescribedByThePlayerWithoutADiscoverer() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue([item(TestMedia.h264)])
        recorder.waitFor("the item described") { !$0.compactMap(\.itemUpdate).isEmpty }
        let info = try XCTUnwrap(recorder.events.compactMap(\.itemUpdate).first?.item.info)
        XCTAssertEqual(try XCTUnwrap(info.duration).seconds, 10, accuracy: 0.2)
        XCTAssertTrue(info.hasVideo)
        XCTAssertTrue(info.hasAudio)
        XCTAssertTrue(info.isPlayable)
        XCTAssertTrue(recorder.staysFalse(for: 0.5) { $0.compactMap(\.itemUpdate).count > 1 }, "described once")
        XCTAssertTrue(player.withFeatureAndWait(QueueFeature.self) { feature, _ in
            XCTAssertEqual(feature.discovery.discoveredCount, 0, "no discoverer result")
            XCTAssertNotEqual(feature.discovery.discoverer?.isOpen, true, "no discoverer made")
        })
    }

    func testAnUnplayableItemIsSkippedWithoutBeingLoaded() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        let garbage = item(TestMedia.garbage), last = item(TestMedia.audioOnly)
        try player.setQueue([item(TestMedia.vp8), garbage, last])
        recorder.waitFor("the broken item found unplayable") { events in
            events.compactMap(\.itemUpdate).contains { $0.index == 1 && $0.item.info?.isPlayable == false }
        }
        let asked = Date()
        player.advanceToNextItem()
        recorder.waitFor("the item after it loaded") { $0.contains { if case .uriLoaded(last.uri) = $0 { return true } else { return false } } }
        XCTAssertLessThan(Date().timeIntervalSince(asked), 2, "no reload stall on the broken item")
        let skip = try XCTUnwrap(recorder.events.compactMap(\.itemSkip).first)
        XCTAssertEqual(skip.index, 1)
        XCTAssertEqual(skip.error.uri, garbage.uri)
        XCTAssertFalse(recorder.events.contains { if case .uriLoaded(garbage.uri) = $0 { return true } else { return false } },
                       "the broken item is never loaded")
        XCTAssertEqual(recorder.events.compactMap(\.itemChange).last?.index, 2)
        XCTAssertFalse(recorder.events.contains { if case .error = $0 { return true } else { return false } }, "no playback error")
    }

    func testRemovingTheItemInFlightCancelsItsDiscovery() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        // The first item is described by the player when it prerolls; the others are discovered,
        // one at a time, a few milliseconds each: enough of them that one is caught in flight.
        let others = [TestMedia.theora, TestMedia.audioOnly, TestMedia.vp8, TestMedia.path("mp3-4s.mp3")]
        let items = [item(TestMedia.h264)] + (others + others).map { item($0) }
        try player.setQueue(items)
        // On the loop thread, in one go: the item being discovered is removed while in flight.
        let removed = Mutex<Int?>(nil)
        XCTAssertTrue(eventually(interval: .milliseconds(1)) { player.withFeatureAndWait(QueueFeature.self) { feature, _ in
            guard removed.withLock({ $0 }) == nil, let id = feature.discovery.itemID, let index = feature.queue.index(ofID: id) else { return }
            feature.run(.remove(index))
            removed.withLock { $0 = id }
        } && removed.withLock { $0 } != nil })
        let id = try XCTUnwrap(removed.withLock { $0 })
        let described = items.count - 1          // every item but the removed one
        recorder.waitFor("the other items described") { $0.compactMap(\.itemUpdate).count >= described }
        XCTAssertTrue(recorder.staysFalse(for: 0.5) { $0.compactMap(\.itemUpdate).count > described })
        XCTAssertFalse(recorder.events.compactMap(\.itemUpdate).contains { $0.item.id == id }, "no result for the removed item")
        XCTAssertTrue(player.withFeatureAndWait(QueueFeature.self) { feature, _ in XCTAssertNil(feature.discovery.itemID) })
    }

    func testClearingTheQueueStopsDiscovery() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue(Array(repeating: item(TestMedia.vp8), count: 50))
        recorder.waitFor("discovery under way") { !$0.compactMap(\.itemUpdate).isEmpty }
        player.clearQueue()
        recorder.waitFor("cleared") { $0.contains { $0.queueChange?.items.isEmpty == true } }
        let count = recorder.events.compactMap(\.itemUpdate).count
        XCTAssertTrue(recorder.staysFalse(for: 0.5) { $0.compactMap(\.itemUpdate).count > count }, "no result after the clear")
        XCTAssertLessThan(count, 50)
        XCTAssertTrue(player.withFeatureAndWait(QueueFeature.self) { feature, _ in
            XCTAssertNil(feature.discovery.itemID)
        })
    }

    func testASongsTagsAreKeptButNotATracksName() throws {
        let path = NSTemporaryDirectory() + "/discovery-tagged-\(UUID().uuidString).ogg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let launch = Process()
        launch.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        launch.arguments = ["-q", "audiotestsrc", "num-buffers=20", "!", "audioconvert", "!", "taginject", "tags=title=Song,artist=Band,album=Record",
                            "!", "vorbisenc", "!", "oggmux", "!", "filesink", "location=\(path)"]
        try launch.run()
        launch.waitUntilExit()
        XCTAssertEqual(launch.terminationStatus, 0, "gst-launch-1.0 wrote \(path)")
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue([item(path), item(TestMedia.vp8)])
        recorder.waitFor("both discovered") { $0.compactMap(\.itemUpdate).count >= 2 }
        let infos = recorder.events.compactMap(\.itemUpdate).map(\.item.info)
        XCTAssertEqual(infos[0]?.title, "Song")
        XCTAssertEqual(infos[0]?.artist, "Band")
        XCTAssertEqual(infos[0]?.album, "Record")
        XCTAssertNil(infos[1]?.title, "the WebM's audio track is called 'Audio': a track's name, not the media's title")
    }

    /// `gst_discoverer_stop` in 1.22 deadlocks when called mid-URI (it sets the pipeline to READY
    /// under its lock, and the pad-removed handler takes the lock): closing a busy discoverer (at
    /// teardown, or discovery turned off) sets its pipeline to NULL first. Here a busy discoverer
    /// is closed at 20 moments of its work (0 to 47.5 ms after its start), on the loop thread.
    func testClosingABusyDiscovererAtAnyMomentReturns() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        try player.setQueue(Array(repeating: item(TestMedia.h264), count: 50))
        recorder.waitFor("discovery under way") { !$0.compactMap(\.itemUpdate).isEmpty }
        let closed = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for step in 0..<20 {
                usleep(UInt32(step * 2_500))
                player.withFeatureAndWait(QueueFeature.self) { feature, _ in
                    if feature.discovery.discoverer?.isBusy != true { feature.refreshDiscovery() }
                    guard feature.discovery.discoverer?.isBusy == true else { return }
                    feature.stopDiscovery()
                    closed.withLock { $0 += 1 }
                }
                // The next one starts now: closed after a slightly longer while next time.
                player.withFeatureAndWait(QueueFeature.self) { feature, _ in feature.refreshDiscovery() }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else { return XCTFail("the loop thread hung closing a busy discoverer") }
        XCTAssertGreaterThan(closed.withLock { $0 }, 10, "closed while busy")
        player.shutdown()
    }
}
