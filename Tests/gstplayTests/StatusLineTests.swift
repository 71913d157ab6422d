import Backend
import XCTest
@testable import gstplay

final class StatusLineTests: XCTestCase {
    private var playing: StatusLine {
        StatusLine(state: .playing, position: MediaTime(seconds: 5), duration: MediaTime(seconds: 10))
    }

    func testFullWidthLine() {
        let line = playing.render(columns: 80)
        XCTAssertEqual(line.count, 79, "fills the width but never the last column")
        XCTAssertTrue(line.hasPrefix("Playing   0:00:05 / 0:00:10 ["), line)
        XCTAssertTrue(line.hasSuffix("]"), line)
        let inner = line.drop { $0 != "[" }.dropFirst().dropLast()
        XCTAssertEqual(inner.count, 79 - 28 - 2)
        XCTAssertEqual(inner.filter { $0 == "=" || $0 == ">" }.count, inner.count / 2, "half way")
    }

    func testWidthsFit() {
        for columns in [1, 2, 10, 20, 27, 28, 40, 41, 60, 80, 120, 300] {
            for model in [playing, StatusLine(state: .buffering, position: nil, duration: nil, bufferingPercent: 40, rate: 1.5, volumePercent: 30, muted: true)] {
                let line = model.render(columns: columns)
                XCTAssertLessThanOrEqual(line.count, max(1, columns - 1), "columns \(columns): '\(line)'")
                XCTAssertTrue(line.allSatisfy(\.isASCII))
            }
        }
    }

    func testBarIsDroppedFirstThenExtras() {
        let model = StatusLine(state: .paused, position: MediaTime(seconds: 1), duration: MediaTime(seconds: 10), rate: 2, volumePercent: 50)
        XCTAssertEqual(model.render(columns: 200).suffix(19), "] rate 2 volume 50%")
        XCTAssertEqual(model.render(columns: 48), "Paused    0:00:01 / 0:00:10 rate 2 volume 50%", "no room for a 12-column bar")
        XCTAssertEqual(model.render(columns: 30), "Paused    0:00:01 / 0:00:10", "extras go next")
        XCTAssertEqual(model.render(columns: 11), "Paused    ")
    }

    func testExtrasAndUnknownDuration() {
        let model = StatusLine(state: .buffering, position: nil, duration: nil, bufferingPercent: 40, rate: 0.5, volumePercent: 100, muted: true)
        let line = model.render(columns: 100)
        XCTAssertTrue(line.hasPrefix("Buffering 0:00:00 / -:--:-- [   "), line)
        XCTAssertTrue(line.hasSuffix("] buffering 40% rate 0.5 muted"), line)
        XCTAssertEqual(StatusLine.label(.paused), "Paused")
        XCTAssertEqual(StatusLine.formatRate(1), "1")
        XCTAssertEqual(StatusLine.formatRate(1.25), "1.25")
        XCTAssertEqual(StatusLine.formatRate(-0.1), "-0.1")
        XCTAssertEqual(StatusLine.formatRate(1.05), "1.05")
    }

    func testStatisticsShowWhenKnown() {
        var model = StatusLine(state: .playing, position: MediaTime(seconds: 3), duration: MediaTime(seconds: 10))
        XCTAssertFalse(model.render(columns: 120).contains("dropped"))
        model.statistics.droppedFrames = 3
        model.statistics.bitrate = 127_600
        XCTAssertTrue(model.render(columns: 120).hasSuffix("] dropped 3 128 kb/s"), model.render(columns: 120))
    }

    func testBar() {
        XCTAssertEqual(StatusLine.bar(width: 12, position: .zero, duration: MediaTime(seconds: 10)), "[          ]")
        XCTAssertEqual(StatusLine.bar(width: 12, position: MediaTime(seconds: 5), duration: MediaTime(seconds: 10)), "[====>     ]")
        XCTAssertEqual(StatusLine.bar(width: 12, position: MediaTime(seconds: 10), duration: MediaTime(seconds: 10)), "[==========]")
        XCTAssertEqual(StatusLine.bar(width: 12, position: MediaTime(seconds: 50), duration: MediaTime(seconds: 10)), "[==========]")
        XCTAssertEqual(StatusLine.bar(width: 12, position: MediaTime(seconds: 5), duration: nil), "[          ]")
    }
}

extension StatusLine {
    /// A line showing a snapshot with these fields (everything else as in an idle snapshot).
    init(state: PlayerState, position: MediaTime?, duration: MediaTime?, bufferingPercent: Int = 100,
         rate: Double = 1, volumePercent: Double = 100, muted: Bool = false) {
        self.init()
        snapshot.state = state
        snapshot.position = position
        snapshot.duration = duration
        snapshot.bufferingPercent = bufferingPercent
        snapshot.rate = rate
        snapshot.volume = VolumeScale.linear(fromCubic: volumePercent / 100)
        snapshot.muted = muted
    }
}
