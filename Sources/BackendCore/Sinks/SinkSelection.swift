import CGStreamer
import GLibSupport

/// Turns a ``SinkChoice`` into the element description ``SinkSet`` builds. Automatic choices
/// never go to `autovideosink`/`autoaudiosink` (they can reach `dfbvideosink`, which crashes, or
/// a Wayland sink that deadlocks a GLib main loop): ``SinkProbe`` opens each candidate in a fixed
/// order and the first that works is used, else a clock-synchronised fake sink with a note.
enum SinkSelection {
    /// The variables the automatic choice depends on, from the process environment (`getenv`).
    static func environment() -> [String: String] {
        ProcessEnvironment.values(of: ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "PULSE_SERVER"])
    }

    /// The video description for `choice` (nil when disabled); an automatic choice is probed and
    /// appends a note to `notes` when it falls back to the fake sink.
    static func videoDescription(_ choice: SinkChoice, environment: [String: String], notes: inout [String]) -> String? {
        preferX11ForGL(environment: environment)
        return resolve(choice, candidates: SinkProbe.videoCandidates(environment: environment), fallback: SinkProbe.fakeVideo,
                nothingToTry: SinkProbe.noDisplay, notes: &notes)
    }

    /// The audio description for `choice`; see ``videoDescription(_:environment:notes:)``.
    static func audioDescription(_ choice: SinkChoice, environment: [String: String], notes: inout [String]) -> String? {
        resolve(choice, candidates: SinkProbe.audioCandidates(environment: environment), fallback: SinkProbe.fakeAudio,
                nothingToTry: SinkProbe.noAudioDevice, notes: &notes)
    }

    /// On X without Wayland, GStreamer's GL library is told to use X (`GST_GL_WINDOW=x11`, unless
    /// the user chose): left alone it tries Wayland first, and libwayland prints "error:
    /// XDG_RUNTIME_DIR is invalid or not set in the environment." to stderr whenever
    /// `glimagesink` is probed or used from a launcher without that variable. Set once,
    /// before any GL sink exists (`g_setenv` without overwriting); any thread.
    static func preferX11ForGL(environment: [String: String]) {
        guard !(environment["DISPLAY"] ?? "").isEmpty, (environment["WAYLAND_DISPLAY"] ?? "").isEmpty else { return }
        _ = glWindowChosen
    }

    private static let glWindowChosen: Void = { g_setenv("GST_GL_WINDOW", "x11", 0) }()

    private static func resolve(_ choice: SinkChoice, candidates: @autoclosure () -> [String], fallback: String,
                                nothingToTry: String, notes: inout [String]) -> String? {
        switch choice {
        case .disabled: return nil
        case .description(let text): return text
        case .automatic:
            let outcome = SinkProbe.choose(from: candidates(), fallback: fallback, nothingToTry: nothingToTry)
            if let note = outcome.note { notes.append(note) }
            return outcome.factory
        }
    }
}
