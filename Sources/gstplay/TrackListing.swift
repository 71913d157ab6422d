import Backend
import BackendControl

/// `--list-tracks`: prerolls each item (``MediaProbe``: paused, fake sinks, nothing rendered),
/// prints its track table (text) or `tracks` events (`--json`) on stdout, and exits: 0 when every
/// item could be read, 1 otherwise (with the usual `gstplay: error:` line).
///
/// **Thread:** the async `main`.
enum TrackListing {
    static func run(_ locations: [String], options: RunOptions, output: Output) async -> Int32 {
        let player = MediaProbe.player(video: options.videoSink != .disabled, audio: options.audioSink != .disabled)
        defer { player.shutdown() }
        var failed = false
        for location in locations {
            switch await MediaProbe.mediaInfo(of: location, on: player) {
            case .success(let info)? where options.json:
                output.out(WireEvents.line(for: .tracks(.tracksChanged(info.tracks, selection: info.selection))))
            case .success(let info)?:
                let duration = info.duration.map { " \($0.formatted())" } ?? ""
                output.out(lines: ["\(location): \(info.tags.container ?? "unknown container")\(duration)"] + TrackCommands.table(info.tracks, info.selection))
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
