@testable import BackendThumbnails
import BackendCore
import Foundation
import TestSupport
import XCTest

/// The seek preview's thumbnail track: which slots a media gets, which picture stands for a time
/// (pure), and a real track of `colour-steps-4s.webm` whose pictures show their seconds' colours.
final class ThumbnailTrackTests: XCTestCase {
    private func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value) }

    func testSlotsAreOneSecondApartForShortMediaAndAtMost200ForLongMedia() {
        let short = ThumbnailTrackPlan(duration: seconds(4))
        XCTAssertEqual(short.interval, seconds(1))
        XCTAssertEqual(short.count, 4)
        XCTAssertEqual((0..<4).map { short.time(ofSlot: $0) }, [0, 1, 2, 3].map { seconds($0) })
        let film = ThumbnailTrackPlan(duration: seconds(2 * 3600))
        XCTAssertEqual(film.interval, seconds(36))
        XCTAssertEqual(film.count, 200)
        XCTAssertEqual(ThumbnailTrackPlan(duration: .zero).count, 1)
        XCTAssertEqual(ThumbnailTrackPlan(duration: seconds(4.5)).count, 5, "a slot at 4 s, before the end")
    }

    func testATimeFallsInTheNearestSlotAndOutsideTimesInTheEndSlots() {
        let plan = ThumbnailTrackPlan(duration: seconds(10))
        XCTAssertEqual(plan.slot(for: seconds(2.4)), 2)
        XCTAssertEqual(plan.slot(for: seconds(2.6)), 3)
        XCTAssertEqual(plan.slot(for: seconds(-5)), 0)
        XCTAssertEqual(plan.slot(for: seconds(99)), 9)
    }

    func testTheSlotMadeNextIsTheMissingOneNearestToTheTimeLookedAt() {
        let plan = ThumbnailTrackPlan(duration: seconds(10))
        XCTAssertEqual(plan.nextSlot(made: [], hint: nil), 0)
        XCTAssertEqual(plan.nextSlot(made: [], hint: seconds(6.8)), 7)
        XCTAssertEqual(plan.nextSlot(made: [7], hint: seconds(6.8)), 6, "the earlier of two as near")
        XCTAssertEqual(plan.nextSlot(made: [6, 7], hint: seconds(6.8)), 8)
        XCTAssertNil(plan.nextSlot(made: Set(0..<10), hint: seconds(3)))
    }

    func testTheNearestPictureMadeStandsForATime() {
        let made = [seconds(0), seconds(5), seconds(2)]
        XCTAssertEqual(ThumbnailTrackPlan.nearest(to: seconds(3.4), among: made), 2)
        XCTAssertEqual(ThumbnailTrackPlan.nearest(to: seconds(3.5), among: made), 2, "the earlier of two as near")
        XCTAssertEqual(ThumbnailTrackPlan.nearest(to: seconds(9), among: made), 1)
        XCTAssertNil(ThumbnailTrackPlan.nearest(to: seconds(1), among: []))
    }

    /// The first look starts the worker; the slot looked at comes first, every slot follows, and
    /// each picture shows its second's colour (red, green, blue, white), small and raw.
    func testATrackOfTheColourStepsShowsEachSecondsColour() throws {
        let arrived = Counter()
        let track = ThumbnailTrack(location: TestMedia.path("colour-steps-4s.webm"), onPicture: { arrived.add() })
        XCTAssertNil(track.plan, "nothing runs before the first look")
        _ = track.thumbnail(near: seconds(2.4))
        let deadline = Date().addingTimeInterval(60)
        while !track.isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(track.isFinished, "the track was not made within 60 s")
        XCTAssertNil(track.failure)
        XCTAssertEqual(track.plan?.count, 4)
        let pictures = track.pictures
        XCTAssertEqual(pictures.map(\.time), [2, 1, 3, 0].map { seconds($0) }, "the slot looked at first, then the nearest")
        XCTAssertEqual(arrived.value, 4)
        for picture in pictures {
            XCTAssertEqual(picture.width, 120)
            XCTAssertEqual(picture.height, 90)
        }
        let expected: [(Double, [UInt8])] = [(0.3, [0, 0, 255]), (1.2, [0, 255, 0]), (2.4, [255, 0, 0]), (3.9, [255, 255, 255])]
        for (time, bgr) in expected {
            let picture = try XCTUnwrap(track.thumbnail(near: seconds(time)))
            let centre = (picture.height / 2 * picture.width + picture.width / 2) * 4
            let pixel = Array(picture.pixels[centre..<centre + 3])
            XCTAssertTrue(zip(pixel, bgr).allSatisfy { abs(Int($0) - Int($1)) < 40 }, "at \(time) s: BGR \(pixel), expected \(bgr)")
        }
    }

    func testAFileWithoutVideoEndsTheTrackWithAFailureAndNoPicture() throws {
        let track = ThumbnailTrack(location: TestMedia.path("audio-only-4s.ogg"))
        XCTAssertNil(track.thumbnail(near: .zero))
        let deadline = Date().addingTimeInterval(30)
        while !track.isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(track.failure?.kind, .noVideo)
        XCTAssertEqual(track.pictures, [])
    }
}

/// A count bumped from the track's worker thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
