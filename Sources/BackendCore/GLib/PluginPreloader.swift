import CGStreamer
import GLibSupport
import Glibc

/// Loads plugins ahead of the pipelines that will ask for them, one at a time, on a thread of its
/// own: the start-up's `gst-init` thread (``GStreamerRuntime/initializeInBackground()``), or a
/// `gst-prefetch` thread started when a request finds none running.
///
/// Two queues: urgent loads (the start-up's plugins, then what a player about to preroll asks
/// for, ``prefetch(_:)``) go before later ones (the output chain, needed only after a decoder).
/// GStreamer loads one plugin at a time under one mutex, so a pipeline asking for a plugin while
/// one loads here waits at most for that one.
///
/// An exit while a plugin loads would run the process's destructors under the loading thread: an
/// `atexit` handler (installed with the first thread) waits for the load in progress and stops
/// the rest.
///
/// **Thread:** any; the loads run on the loader thread.
package enum PluginPreloader {
    /// One thing to load.
    package enum Load: Equatable, Sendable {
        /// A plugin by name (`gst_plugin_load_by_name`).
        case plugin(String)
        /// The plugin of an element factory (`gst_registry_lookup_feature`, `gst_plugin_feature_load`).
        case pluginProviding(String)
    }

    /// The queues and the loader's flags. Allocated once and never freed: it lives as long as the
    /// process. `queueMutex` guards the queues and `running`; `loading` is held across each load
    /// and guards `exiting`, so that the exit handler waits for a load without blocking a caller
    /// that only queues.
    private struct State {
        var queueMutex = pthread_mutex_t()
        var urgent: [Load] = []
        var later: [Load] = []
        var running = false
        var exitHandlerInstalled = false
        var loading = pthread_mutex_t()
        var exiting = false
    }

    private nonisolated(unsafe) static let state: UnsafeMutablePointer<State> = {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        pthread_mutex_init(&state.pointee.queueMutex, nil)
        pthread_mutex_init(&state.pointee.loading, nil)
        return state
    }()

    /// Queues `urgent` and `later` and starts the `gst-init` thread on another CPU, which
    /// initialises GStreamer first.
    static func start(urgent: [Load], later: [Load]) {
        enqueue(urgent: urgent, later: later, threadName: "gst-init")
    }

    /// Queues the plugins named in `plugins` as urgent loads (after the start-up's), for a
    /// pipeline about to start; returns at once. Starts a `gst-prefetch` thread when no loader runs.
    package static func prefetch(_ plugins: [String]) {
        guard !plugins.isEmpty else { return }
        enqueue(urgent: plugins.map { .plugin($0) }, later: [], threadName: "gst-prefetch")
    }

    /// Whether every queued load is done (or stopped by the exit handler) and no loader runs.
    package static var isIdle: Bool {
        pthread_mutex_lock(&state.pointee.queueMutex)
        defer { pthread_mutex_unlock(&state.pointee.queueMutex) }
        return !state.pointee.running
    }

    private static func enqueue(urgent: [Load], later: [Load], threadName: String) {
        pthread_mutex_lock(&state.pointee.queueMutex)
        defer { pthread_mutex_unlock(&state.pointee.queueMutex) }
        state.pointee.urgent += urgent.filter { !state.pointee.urgent.contains($0) }
        state.pointee.later += later.filter { !state.pointee.later.contains($0) }
        if !state.pointee.exitHandlerInstalled {
            state.pointee.exitHandlerInstalled = true
            atexit { PluginPreloader.stopAtExit() }
        }
        guard !state.pointee.running else { return }
        state.pointee.running = true
        DetachedThread.startOnAnotherCPU(name: threadName) {
            GStreamerRuntime.ensureInitialized()
            PluginPreloader.drain()
        }
    }

    /// The loader's loop: the next load, urgent first, until both queues are empty or the exit
    /// handler has run.
    private static func drain() {
        while true {
            pthread_mutex_lock(&state.pointee.loading)
            defer { pthread_mutex_unlock(&state.pointee.loading) }
            pthread_mutex_lock(&state.pointee.queueMutex)
            let next: Load?
            if state.pointee.exiting {
                next = nil
            } else if !state.pointee.urgent.isEmpty {
                next = state.pointee.urgent.removeFirst()
            } else if !state.pointee.later.isEmpty {
                next = state.pointee.later.removeFirst()
            } else {
                next = nil
            }
            if next == nil { state.pointee.running = false }
            pthread_mutex_unlock(&state.pointee.queueMutex)
            guard let next else { return }
            load(next)
        }
    }

    /// Loads `item` now, on the calling thread; any thread, after ``GStreamerRuntime/ensureInitialized()``.
    /// A name the registry does not know, or a plugin that fails to load, is skipped: a pipeline
    /// that needs it reports it.
    package static func load(_ item: Load) {
        switch item {
        case .plugin(let name):
            if let plugin = gst_plugin_load_by_name(name) { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        case .pluginProviding(let element):
            guard let registry = gst_registry_get(), let feature = gst_registry_lookup_feature(registry, element) else { return }
            defer { gst_object_unref(UnsafeMutableRawPointer(feature)) }
            if let loaded = gst_plugin_feature_load(feature) { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
        }
    }

    /// The exit handler: waits for GStreamer's initialisation and for a load in progress, and
    /// stops the rest.
    private static func stopAtExit() {
        GStreamerRuntime.ensureInitialized()
        pthread_mutex_lock(&state.pointee.loading)
        state.pointee.exiting = true
        pthread_mutex_unlock(&state.pointee.loading)
    }
}
