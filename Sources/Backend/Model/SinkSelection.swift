import Foundation

/// Picks sinks that work on the machine at hand. The auto sinks are not trusted headless:
/// with no display `autovideosink` can reach `dfbvideosink`, which crashes, or a Wayland sink
/// that deadlocks a GLib main loop; so without a display or sound device the Backend uses
/// clock-synchronised fake sinks instead, and says so once.
public enum SinkSelection {
    /// What automatic selection found.
    public struct Environment: Sendable, Equatable {
        /// An X11 or Wayland display is named in the environment.
        public var hasDisplay: Bool
        /// A PulseAudio/PipeWire server or an ALSA card is present.
        public var hasAudioDevice: Bool

        /// Creates the value.
        public init(hasDisplay: Bool, hasAudioDevice: Bool) {
            self.hasDisplay = hasDisplay
            self.hasAudioDevice = hasAudioDevice
        }
    }

    /// Looks at `DISPLAY`/`WAYLAND_DISPLAY`, the Pulse/PipeWire sockets and `/proc/asound/cards`.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> Environment {
        let display = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        var audio = !(environment["PULSE_SERVER"] ?? "").isEmpty
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            audio = audio || FileManager.default.fileExists(atPath: runtime + "/pulse/native")
                || FileManager.default.fileExists(atPath: runtime + "/pipewire-0")
        }
        if !audio, let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) {
            audio = !cards.contains("no soundcards") && !cards.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        return Environment(hasDisplay: display, hasAudioDevice: audio)
    }

    /// The element description to use for video under `environment` with `choice`.
    static func videoDescription(_ choice: SinkChoice, _ environment: Environment) -> String? {
        switch choice {
        case .disabled: return nil
        case .description(let text): return text
        case .automatic: return environment.hasDisplay ? "autovideosink" : "fakevideosink"
        }
    }

    /// The element description to use for audio under `environment` with `choice`.
    static func audioDescription(_ choice: SinkChoice, _ environment: Environment) -> String? {
        switch choice {
        case .disabled: return nil
        case .description(let text): return text
        case .automatic: return environment.hasAudioDevice ? "autoaudiosink" : "fakeaudiosink"
        }
    }
}
