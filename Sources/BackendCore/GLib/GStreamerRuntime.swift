import CGStreamer
import GLibSupport
import Glibc

/// One-time process-wide GStreamer initialisation (`gst_init` and `gst_pb_utils_init`).
package enum GStreamerRuntime {
    /// Whether `gst_init` has run, and the mutex that guards it and that a caller arriving while
    /// another thread initialises sleeps on. Not a Swift lazy global: a thread that reaches one
    /// while another runs its initialiser waits on a priority-inheritance futex, and the kernel lets
    /// such a waiter spin on its own core for as long as the owner runs — during the 10 ms of
    /// `gst_init` on the start-up's `gst-init` thread, a core taken from the command line's parsing
    /// and from `gst_init` itself on a 2-core machine. A default `pthread_mutex_t`'s waiters sleep
    /// (`FUTEX_WAIT`, no spinning), and ThreadSanitizer sees it (a `GMutex` is atomics and futexes
    /// inside GLib, which it does not); nor `g_once_init_enter`, whose waiters wake at every type
    /// GStreamer registers meanwhile. Allocated once and never freed: it lives as long as the process.
    private struct Initialization {
        var mutex = pthread_mutex_t()
        var done = false
    }
    /// The one ``Initialization`` (touched only under its mutex).
    private nonisolated(unsafe) static let initialization: UnsafeMutablePointer<Initialization> = {
        let state = UnsafeMutablePointer<Initialization>.allocate(capacity: 1)
        state.initialize(to: Initialization())
        pthread_mutex_init(&state.pointee.mutex, nil)
        return state
    }()

    /// Sinks the auto sinks (`autovideosink`, playbin's own fallback) must never pick, because they
    /// take the process down: `dfbvideosink` segfaults without a DirectFB device (any desktop without
    /// gstreamer1.0-x/-gl, DESIGN.md §6), `gtkwaylandsink` deadlocks an app running a GLib main loop.
    /// Naming one explicitly (`--video-sink dfbvideosink`) still works.
    static let crashingSinks = ["dfbvideosink", "gtkwaylandsink"]

    /// Sets the rank of ``crashingSinks`` to `GST_RANK_NONE` in this process only
    /// (`gst_registry_lookup_feature`, `gst_plugin_feature_set_rank`; the registry cache is untouched).
    private static func rankOutCrashingSinks() {
        guard let registry = gst_registry_get() else { return }
        for name in crashingSinks {
            guard let feature = gst_registry_lookup_feature(registry, name) else { continue }
            gst_plugin_feature_set_rank(feature, guint(GST_RANK_NONE.rawValue))
            gst_object_unref(UnsafeMutableRawPointer(feature))
        }
    }

    /// Initialises GStreamer on first use (`gst_init`, `gst_pb_utils_init`); any thread. A caller
    /// that arrives while another thread initialises sleeps until it is done.
    package static func ensureInitialized() {
        let state = initialization
        pthread_mutex_lock(&state.pointee.mutex)
        defer { pthread_mutex_unlock(&state.pointee.mutex) }
        guard !state.pointee.done else { return }
        gst_init(nil, nil)
        gst_pb_utils_init()
        rankOutCrashingSinks()
        state.pointee.done = true
    }

    /// The plugins every play with the default configuration loads before its first buffer,
    /// whatever the media, in the order it needs them: `playbin` (playback), the sinks' bins and
    /// `fakesink`/`queue`/`typefind` (coreelements), the `scaletempo` audio filter (audiofx) and
    /// the type finders (typefindfunctions; 1.5–3 ms to load, on the streaming thread's path to the
    /// first frame otherwise). A play without `keepPitch` does not use audiofx.
    package static let startupPlugins = ["playback", "coreelements", "audiofx", "typefindfunctions"]

    /// The elements playsink builds its default output chain from, downstream of the decoders:
    /// conversion, volume and resampling for an audio stream; conversion, scaling, colour balance
    /// (playbin's `soft-colorbalance` flag) and deinterlacing (its `deinterlace` flag) for a video
    /// stream. Whatever the media, a play with sound or picture loads their plugins (audioconvert,
    /// volume, audioresample, videoconvertscale, videofilter, deinterlace) after its decoder,
    /// on the way to its first buffer. Named by element rather than plugin: plugins merge
    /// (GStreamer 1.22 put videoconvert and videoscale in one).
    package static let outputChainElements = ["audioconvert", "volume", "audioresample", "videoconvert", "videoscale", "videobalance", "deinterlace"]

    /// Starts ``ensureInitialized()`` on a thread of its own on another CPU (``PluginPreloader``,
    /// ``DetachedThread/startOnAnotherCPU(name:_:)``), so that `gst_init` — reading the plugin
    /// registry, ~10 ms here — runs on another core while the caller goes on with its own start-up
    /// (a command line parsed, a configuration read); the first ``ensureInitialized()`` after it
    /// waits for it to finish. The thread then loads ``startupPlugins``, any plugin a player asks
    /// for meanwhile (``PluginPreloader/prefetch(_:)``) and the plugins of
    /// ``outputChainElements``, outside the initialisation's mutex: the player builds its pipeline
    /// meanwhile and finds them loaded. Call at most once, early, where GStreamer will be needed.
    package static func initializeInBackground() {
        PluginPreloader.start(urgent: startupPlugins.map { .plugin($0) }, later: outputChainElements.map { .pluginProviding($0) })
    }

    /// The GStreamer version string, e.g. "GStreamer 1.22.0".
    /// "major.minor.micro[.nano]" from `gst_version` (no `gst_init` needed).
    static var versionNumber: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return nano == 0 ? "\(major).\(minor).\(micro)" : "\(major).\(minor).\(micro).\(nano)"
    }

    static var versionString: String {
        ensureInitialized()
        guard let raw = gst_version_string() else { return "GStreamer" }
        defer { g_free(raw) }
        return String(cString: raw)
    }
}

extension String {
    /// Copies a GLib-allocated string and frees it (`g_free`). `package`: feature targets use it too.
    package init?(takingGLibString pointer: UnsafeMutablePointer<gchar>?) {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        self = String(cString: pointer)
    }
}
