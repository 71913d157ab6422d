// Playback only (product `BackendCore`, no feature targets): a player without features plays a
// fixture headless and reports its duration. Must link no libX11 (check.sh runs `ldd` on it).
import BackendCore

var configuration = PlayerConfiguration()
configuration.videoSink = .description("fakesink")
configuration.audioSink = .description("fakesink")
configuration.autoplay = false
let player = Player(configuration: configuration, features: [])
player.load(CommandLine.arguments.dropFirst().first ?? "Fixtures/h264-aac-10s.mp4")
for await event in player.events {
    if case .durationChanged(let duration?) = event { print("duration:", duration.formatted()); break }
    if case .error(let error) = event { print("error:", error); break }
}
player.shutdown()
