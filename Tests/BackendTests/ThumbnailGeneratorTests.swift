@testable import BackendCore
@testable import BackendThumbnails
import Backend
import Foundation
import ProcessProbe
import TestSupport
import XCTest

extension TestMedia {
    /// 4 s, 320x240: red, green, blue, white for one second each (see Fixtures/README.md).
    static let colourSteps = TestMedia.path("colour-steps-4s.webm")
}

/// `ThumbnailGenerator` on real pipelines; every image is decoded back with GStreamer and its
/// size and pixels checked against the frame expected at its time.
final class ThumbnailGeneratorTests: XCTestCase {
    /// The colour of `colour-steps-4s.webm` at `seconds`.
    static func expectedColour(at seconds: Double) -> DecodedImage.Pixel {
        [DecodedImage.Pixel.red, .green, .blue, .white][min(3, Int(seconds))]
    }

    func testCountSpreadsTimesAndEachImageShowsTheFrameOfItsTime() async throws {
        let generator = ThumbnailGenerator(location: TestMedia.colourSteps, maximumSize: ImageSize(width: 160))
        var results: [ThumbnailResult] = []
        for try await step in generator.thumbnails(at: .count(4)) { results.append(step) }
        XCTAssertEqual(results.map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(results.map(\.fractionCompleted), [0.25, 0.5, 0.75, 1.0])
        XCTAssertEqual(results.map(\.requestedTime.seconds), [0.5, 1.5, 2.5, 3.5])
        var centres: [DecodedImage.Pixel] = []
        for step in results {
            let thumbnail = try step.result.get()
            XCTAssertEqual(abs(thumbnail.actualTime.seconds - step.requestedTime.seconds), 0, accuracy: 0.26, "key frames every 0.5 s")
            XCTAssertEqual([thumbnail.image.width, thumbnail.image.height], [160, 120])
            let decoded = try XCTUnwrap(DecodedImage.decode(thumbnail.image.bytes))
            XCTAssertEqual([decoded.width, decoded.height], [160, 120])
            XCTAssertFalse(decoded.isBlack)
            let centre = decoded.pixel(x: 80, y: 80)
            let expected = Self.expectedColour(at: step.requestedTime.seconds)
            XCTAssertTrue(centre.isClose(to: expected), "at \(step.requestedTime): \(centre), expected \(expected)")
            centres.append(centre)
        }
        XCTAssertEqual(Set(centres.map(\.description)).count, 4, "four different frames")
    }

    func testAccurateSeeksPickTheFrameAtTheTimeNotTheNearestKeyFrame() async throws {
        // 0.9 s is red and 1.1 s green, 2.95 s blue; none of them is a key frame.
        let times = [MediaTime(seconds: 0.9), MediaTime(seconds: 1.1), MediaTime(seconds: 2.95)]
        var accurate = ThumbnailGenerator(location: TestMedia.colourSteps, seekMode: .accurate)
        let shots = try await accurate.generate(at: .times(times))
        XCTAssertEqual(shots.count, 3)
        for (shot, time) in zip(shots, times) {
            // The frame covering the time: it starts at most one frame (33.3 ms) before it.
            XCTAssertLessThanOrEqual(shot.actualTime.nanoseconds, time.nanoseconds + 1_000_000)
            XCTAssertGreaterThan(shot.actualTime.seconds, time.seconds - 0.0334)
            let centre = try XCTUnwrap(DecodedImage.decode(shot.image.bytes)).pixel(x: 160, y: 160)
            XCTAssertTrue(centre.isClose(to: Self.expectedColour(at: time.seconds)), "\(time): \(centre)")
        }
        XCTAssertEqual(shots[2].actualTime.seconds, 88.0 / 30, accuracy: 0.001, "2.95 s is shown by frame 88 (2.933 s)")
        accurate.seekMode = .keyUnit
        let key = try await accurate.generate(at: .times([MediaTime(seconds: 0.9)]))
        // Key frames are every 0.5 s; matroskademux snaps to one (0.5 s here) instead of decoding to 0.9 s.
        let landed = key[0].actualTime.seconds
        XCTAssertEqual(landed * 2, (landed * 2).rounded(), accuracy: 0.001, "key-unit lands on a key frame, got \(landed)")
        XCTAssertNotEqual(landed, 0.9, accuracy: 0.05)
        let keyCentre = try XCTUnwrap(DecodedImage.decode(key[0].image.bytes)).pixel(x: 160, y: 160)
        XCTAssertTrue(keyCentre.isClose(to: Self.expectedColour(at: landed)), "the frame of \(landed): \(keyCentre)")
    }

    func testPixelAspectRatioGivesTheDisplaySize() async throws {
        // par-64-45.mkv: 720x576 coded at PAR 64/45 → 1024x576 on screen.
        let full = try await ThumbnailGenerator(location: TestMedia.nonSquare).generate(at: .count(1))
        XCTAssertEqual([full[0].image.width, full[0].image.height], [1024, 576])
        let decoded = try XCTUnwrap(DecodedImage.decode(full[0].image.bytes))
        XCTAssertEqual([decoded.width, decoded.height], [1024, 576])
        XCTAssertFalse(decoded.isBlack)
        let small = try await ThumbnailGenerator(location: TestMedia.nonSquare, maximumSize: ImageSize(width: 240)).generate(at: .count(1))
        let smallDecoded = try XCTUnwrap(DecodedImage.decode(small[0].image.bytes))
        XCTAssertEqual([smallDecoded.width, smallDecoded.height], [240, 135])
        let boxed = try await ThumbnailGenerator(location: TestMedia.nonSquare, maximumSize: ImageSize(width: 400, height: 100)).generate(at: .count(1))
        XCTAssertEqual([boxed[0].image.width, boxed[0].image.height], [178, 100], "the height bound wins")
    }

    func testBurnsInTimeCaptionsTheLowerLeftCorner() async throws {
        let times = ThumbnailTimes.times([MediaTime(seconds: 1.5)])
        var generator = ThumbnailGenerator(location: TestMedia.colourSteps, maximumSize: ImageSize(width: 240))
        let plainShot = try await generator.generate(at: times)
        let plain = try XCTUnwrap(DecodedImage.decode(plainShot[0].image.bytes))
        generator.burnsInTime = true
        let captionedShot = try await generator.generate(at: times)
        let captioned = try XCTUnwrap(DecodedImage.decode(captionedShot[0].image.bytes))
        XCTAssertEqual([captioned.width, captioned.height], [240, 180])
        var changed = 0
        for y in 150..<178 {
            for x in 2..<120 where !plain.pixel(x: x, y: y).isClose(to: captioned.pixel(x: x, y: y), tolerance: 30) { changed += 1 }
        }
        XCTAssertGreaterThan(changed, 150, "a caption in the lower left corner")
        XCTAssertTrue(captioned.pixel(x: 120, y: 90).isClose(to: .green), "the rest of the frame is untouched")
        XCTAssertTrue(captioned.pixel(x: 230, y: 170).isClose(to: .green), "the lower right corner is untouched")
    }

    func testJPEGIsEncodedByGStreamer() async throws {
        let shots = try await ThumbnailGenerator(location: TestMedia.colourSteps, maximumSize: ImageSize(width: 100), format: .jpeg)
            .generate(at: .times([MediaTime(seconds: 2.5)]))
        XCTAssertEqual(Array(shots[0].image.bytes.prefix(2)), [0xFF, 0xD8], "JPEG SOI marker")
        let decoded = try XCTUnwrap(DecodedImage.decode(shots[0].image.bytes, format: .jpeg))
        XCTAssertEqual([decoded.width, decoded.height], [100, 75])
        XCTAssertTrue(decoded.pixel(x: 50, y: 50).isClose(to: .blue))
    }

    func testTimePastTheEndFailsOnlyThatImage() async throws {
        let times = [MediaTime(seconds: 0.5), MediaTime(seconds: 9), MediaTime(seconds: 4), MediaTime(seconds: 3.5)]
        var results: [ThumbnailResult] = []
        for try await step in ThumbnailGenerator(location: TestMedia.colourSteps).thumbnails(at: .times(times)) { results.append(step) }
        XCTAssertEqual(results.count, 4)
        XCTAssertNoThrow(try results[0].result.get())
        for index in [1, 2] {
            guard case .failure(let error) = results[index].result else { XCTFail("\(index) should fail"); continue }
            XCTAssertEqual(error.kind, .timePastEnd)
            XCTAssertTrue(error.message.contains("past the end"), error.message)
        }
        let last = try results[3].result.get()
        XCTAssertTrue(try XCTUnwrap(DecodedImage.decode(last.image.bytes)).pixel(x: 160, y: 160).isClose(to: .white))
    }

    func testWholeRequestErrors() async {
        let directory = TestMedia.root.appendingPathComponent("Fixtures").path
        let cases: [(String, ImageError.Kind)] = [
            (TestMedia.audioOnly, .noVideo),
            (directory, .isDirectory),
            (TestMedia.path("does-not-exist.mp4"), .open),
            (TestMedia.garbage, .open),
            (TestMedia.empty, .open),
        ]
        for (location, kind) in cases {
            do {
                _ = try await ThumbnailGenerator(location: location).generate(at: .count(3))
                XCTFail("\(location) should fail")
            } catch let error as ImageError {
                XCTAssertEqual(error.kind, kind, "\(location): \(error)")
                XCTAssertFalse(error.message.isEmpty)
            } catch {
                XCTFail("unexpected \(error)")
            }
        }
        do {
            _ = try await ThumbnailGenerator(location: TestMedia.colourSteps).generate(at: .count(0))
            XCTFail("count 0 should fail")
        } catch let error as ImageError {
            XCTAssertEqual(error.kind, .invalidArgument)
        } catch { XCTFail("unexpected \(error)") }
    }

    func testCancellingTheTaskStopsTheWorkerAndItsPipeline() async throws {
        let generator = ThumbnailGenerator(location: TestMedia.h264, seekMode: .accurate)
        let firstArrived = expectation(description: "first thumbnail")
        let task = Task {
            var count = 0
            for try await _ in generator.thumbnails(at: .count(300)) {
                count += 1
                if count == 1 { firstArrived.fulfill() }
            }
            return count
        }
        await fulfillment(of: [firstArrived], timeout: 20)
        XCTAssertGreaterThan(thumbnailWorkerThreads(), 0, "the worker thread is seen while it works")
        task.cancel()
        let count = try await task.value
        XCTAssertLessThan(count, 300, "the request stopped early")
        let stopped = expectation(description: "worker stopped")
        Task.detached {
            while thumbnailWorkerThreads() != 0 { try? await Task.sleep(for: .milliseconds(10)) }
            stopped.fulfill()
        }
        await fulfillment(of: [stopped], timeout: 5)
    }

}

/// The thumbnail worker threads alive in this process (`/proc/self/task/*/comm`: GLib names
/// them `gstplay-thumbs`, `gstplay-thumb` and `gstplay-track`).
private func thumbnailWorkerThreads() -> Int {
    (ProcFS.entries("/proc/self/task") ?? []).filter { task in
        let name = ProcFS.read("/proc/self/task/\(task)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return name.hasPrefix("gstplay-thumb") || name == "gstplay-track"
    }.count
}
