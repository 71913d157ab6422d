@testable import Backend
import Foundation

/// Paths of the committed media in `Fixtures/`, and players configured for headless tests.
enum TestMedia {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ name: String) -> String { root.appendingPathComponent("Fixtures").appendingPathComponent(name).path }

    static let h264 = path("h264-aac-10s.mp4")
    static let vp8 = path("vp8-opus-4s.webm")
    static let theora = path("theora-vorbis-4s.ogg")
    static let audioOnly = path("audio-only-4s.ogg")
    static let nonSquare = path("par-64-45.mkv")
    static let sizeChange = path("size-change.webm")
    static let short = path("short-0.2s.mp4")
    static let truncated = path("truncated.mp4")
    static let noMoov = path("no-moov.mp4")
    static let garbage = path("garbage.bin")
    static let empty = path("empty.mp4")
}

extension Player {
    /// A player with real-time fake sinks (`fakesink sync=true`, built as bins), as tests use.
    static func forTesting(_ recorder: EventRecorder, sync: Bool = true, configure: (inout PlayerConfiguration) -> Void = { _ in }) -> Player {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakesink sync=\(sync)")
        configuration.audioSink = .description("fakesink sync=\(sync)")
        configure(&configuration)
        return Player(configuration: configuration, delegate: recorder)
    }
}

/// Threads of this process right now (`/proc/self/task`).
func currentThreadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}
