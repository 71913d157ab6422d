import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--list-tracks`: prerolls each item (paused, fake sinks, nothing rendered), prints its track
/// table (text) or `tracks` events (`--json`) on stdout, and exits: 0 when every item could be
/// read, 1 otherwise (with the usual `gstplay: error:` line).
///
/// **Thread:** the async `main`; the player's events are awaited through ``Player/events``.
enum TrackListing {
    static func run(_ locations: [String], options: RunOptions, output: Output) async -> Int32 {
        var configuration = PlayerConfiguration()
        configuration.autoplay = false
        configuration.videoSink = options.videoSink == .disabled ? .disabled : .description("fakevideosink")
        configuration.audioSink = options.audioSink == .disabled ? .disabled : .description("fakeaudiosink")
        configuration.positionInterval = .zero
        let player = Player(configuration: configuration)
        defer { player.shutdown() }
        var failed = false
        for location in locations {
            let events = player.events
            player.load(location)
            var outcome: Result<MediaInfo, PlayerError>?
            for await event in events {
                if case .mediaInfo(let info) = event { outcome = .success(info); break }
                if case .error(let error) = event { outcome = .failure(error); break }
            }
            switch outcome {
            case .success(let info)?:
                if options.json {
                    output.out(WireEvents.line(for: .tracks(.tracksChanged(info.tracks, selection: info.selection))))
                } else {
                    let duration = info.duration.map { " \($0.formatted())" } ?? ""
                    output.out(lines: ["\(location): \(info.tags.container ?? "unknown container")\(duration)"]
                               + TrackCommands.table(info.tracks, info.selection))
                }
            case .failure(let error)?:
                output.err("gstplay: error: \(location): \(ErrorText.text(of: error))")
                failed = true
            case nil:
                failed = true
            }
        }
        return failed ? ExitStatus.playbackError : ExitStatus.success
    }
}
