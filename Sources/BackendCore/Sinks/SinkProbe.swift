import CGStreamer
import Glibc

/// Finds the first sink that really opens on this machine, in a fixed order, instead of trusting
/// `autovideosink`/`autoaudiosink` (which can reach `dfbvideosink` and crash, or a Wayland sink
/// that deadlocks a GLib main loop; see DESIGN.md §6).
///
/// Each candidate is created with `gst_element_factory_make`, set to READY (which opens the X
/// display, the Wayland socket, the PulseAudio server or the ALSA device), then back to NULL and
/// unreferenced. A candidate whose factory is missing, whose rank is `GST_RANK_NONE` (so
/// `GST_PLUGIN_FEATURE_RANK=ximagesink:NONE` hides it, as it hides it from the auto sinks), or
/// that does not reach READY is skipped with a reason. When none works the fake sink is used and
/// ``Outcome/note`` says why. Any thread; blocking for as long as the sinks take to open (a few ms
/// each here, see docs/BENCHMARKS.md).
enum SinkProbe {
    /// What a probe found.
    struct Outcome: Sendable, Equatable {
        /// The factory to create (a candidate that reached READY, or the fake sink).
        var factory: String
        /// True when no candidate worked and ``factory`` is the fake sink.
        var isFallback: Bool
        /// Candidates skipped before ``factory``, with the reason, in probe order.
        var rejected: [Rejection]

        /// Why there was nothing to try (no display, no audio device), for ``note``.
        var nothingToTry = "nothing to try"

        /// One sentence for the `sinks` event when the fake sink was chosen; nil otherwise.
        var note: String? {
            guard isFallback else { return nil }
            guard !rejected.isEmpty else { return "\(nothingToTry); using \(factory)" }
            let tried = rejected.map { "\($0.factory) \($0.reason)" }.joined(separator: ", ")
            return "no working \(kind) output (\(tried)); using \(factory)"
        }

        /// "video" or "audio", from the fake sink's name.
        private var kind: String { factory.contains("audio") ? "audio" : "video" }
    }

    /// A candidate that was not chosen.
    struct Rejection: Sendable, Equatable {
        /// The factory name.
        var factory: String
        /// "not installed", "ranked NONE" or "failed to open".
        var reason: String
    }

    /// The fake sinks used when nothing else works (`sync=true` by default: they keep real time).
    static let fakeVideo = "fakevideosink"
    /// See ``fakeVideo``.
    static let fakeAudio = "fakeaudiosink"

    /// Video candidates for `environment`, best first: the X sinks when `DISPLAY` is set,
    /// `glimagesink` when any display is, `waylandsink` only when `WAYLAND_DISPLAY` is (pure).
    static func videoCandidates(environment: [String: String]) -> [String] {
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        var result: [String] = []
        if x11 { result += ["xvimagesink", "ximagesink"] }
        if x11 || wayland { result.append("glimagesink") }
        if wayland { result.append("waylandsink") }
        return result
    }

    /// Audio candidates, best first: PulseAudio (also PipeWire's Pulse server) when its socket
    /// exists, ALSA when `/dev/snd` does. Checking for them first keeps a machine without sound
    /// from loading libpulse and libasound only to be refused (2.7 MiB of peak RSS, measured).
    /// `exists` is `access(path, F_OK)` outside tests.
    static func audioCandidates(environment: [String: String], exists: (String) -> Bool = { access($0, F_OK) == 0 }) -> [String] {
        var result: [String] = []
        var sockets = ["/run/pulse/native"]
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        sockets += [runtime + "/pulse/native", runtime + "/pipewire-0"]
        if !(environment["PULSE_SERVER"] ?? "").isEmpty || sockets.contains(where: exists) { result.append("pulsesink") }
        if exists("/dev/snd") { result.append("alsasink") }
        return result
    }

    /// Why no video candidate exists (for the note).
    static let noDisplay = "no display (DISPLAY and WAYLAND_DISPLAY unset)"
    /// Why no audio candidate exists (for the note).
    static let noAudioDevice = "no audio device (no PulseAudio/PipeWire socket, no /dev/snd)"

    /// Probes `candidates` in order; `fallback` when none opens (any thread).
    static func choose(from candidates: [String], fallback: String, nothingToTry: String = "nothing to try") -> Outcome {
        GStreamerRuntime.ensureInitialized()
        var rejected: [Rejection] = []
        for factory in candidates {
            if let reason = problem(with: factory) {
                rejected.append(Rejection(factory: factory, reason: reason))
            } else {
                return Outcome(factory: factory, isFallback: false, rejected: rejected)
            }
        }
        return Outcome(factory: fallback, isFallback: true, rejected: rejected, nothingToTry: nothingToTry)
    }

    /// Why `factory` cannot be used, or nil when an element of it reached READY
    /// (`gst_element_factory_find`, `gst_plugin_feature_get_rank`, `gst_element_set_state`).
    static func problem(with factory: String) -> String? {
        guard let found = gst_element_factory_find(factory) else { return "not installed" }
        let rank = gst_plugin_feature_get_rank(found)
        guard rank != guint(GST_RANK_NONE.rawValue) else {
            gst_object_unref(UnsafeMutableRawPointer(found))
            return "ranked NONE"
        }
        let element = gst_element_factory_create(found, nil)
        gst_object_unref(UnsafeMutableRawPointer(found))
        guard let element else { return "not installed" }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        defer {
            gst_element_set_state(element, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(element))
        }
        return gst_element_set_state(element, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE ? "failed to open" : nil
    }
}
