import Dispatch
import Backend

/// The validated command line, as plain values. Built by ``GstplayCommand``; any thread.
struct RunOptions: Equatable, Sendable {
    var locations: [String]
    var audioSink: SinkChoice = .automatic
    var videoSink: SinkChoice = .automatic
    /// Perceptual volume in percent (0…100), nil to leave the default.
    var volumePercent: Double?
    var start: SeekArgument?
    var rate: Double?
    var mute = false
    var quiet = false
    var json = false
    var keepOpen = false
    var loop = false
    var positionIntervalMilliseconds: UInt32 = 250

    /// The Backend configuration these options ask for.
    func playerConfiguration(delegateQueue: DispatchQueue) -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.positionIntervalMilliseconds = positionIntervalMilliseconds
        let environment = SinkSelection.detect()
        configuration.videoSink = Self.safeSink(videoSink, deviceExists: environment.hasDisplay, fake: "fakevideosink")
        configuration.audioSink = Self.safeSink(audioSink, deviceExists: environment.hasAudioDevice, fake: "fakeaudiosink")
        configuration.delegateQueue = delegateQueue
        // A percentage start needs the duration: wait in `ready` and start after the seek.
        if case .fraction? = start { configuration.autoplay = false }
        return configuration
    }

    /// Works around a Backend problem: ``SinkChoice/disabled`` only clears playbin's video/audio
    /// flag and leaves the sink unset, and playbin 1.22 then still auto-plugs a sink for the
    /// stream — headless that is the GL/DirectFB video sink, which segfaults (also reproducible
    /// with `gst-launch-1.0 playbin flags=0x2 audio-sink=fakeaudiosink`), and ALSA probing noise
    /// for audio. Where no display (or audio device) exists, `--no-video` (`--no-audio`) uses the
    /// fake sink instead; elsewhere it stays ``SinkChoice/disabled``.
    static func safeSink(_ choice: SinkChoice, deviceExists: Bool, fake: String) -> SinkChoice {
        choice == .disabled && !deviceExists ? .description(fake) : choice
    }
}
