import BackendCore
import GLibSupport

/// Loads, while a pipeline starts, the plugins the last play of the same kind of media needed
/// (``PluginPrefetchStore``), and records what this play's pipeline needed once it prerolled.
///
/// A pipeline loads each plugin when it first needs one of its elements, on its streaming thread,
/// one after the other: the demuxer's once the container is known, the decoders' once the demuxer
/// has read the streams' formats. The decoders' plugin can be the largest cost of a start —
/// gst-libav (H.264, AAC) maps 177 shared libraries here, 45–85 ms — and the other core is idle
/// meanwhile. Loaded on a thread of its own as the load begins, it overlaps the pipeline's own
/// work up to that point (typefinding, the demuxer reading the headers). GStreamer loads one
/// plugin at a time (one mutex), so a plugin the pipeline asks for meanwhile waits at most
/// for the one being loaded.
///
/// Sources and decoding elements (demuxers, parsers, decoders, depayloaders, decryptors) are
/// recorded, sources first (an HTTP source's plugin is then not queued behind a decoder's), but no
/// sink: sinks follow from the player's configuration, which can change between runs (a window's
/// sink maps X11); sources follow from the URI's scheme, which is part of the kind. The first
/// play of a kind has nothing to load; a record that no longer fits (a `.mkv` with other codecs)
/// costs one start the loading of plugins it does not use, and is replaced by what that play
/// needed.
///
/// **Thread:** the player's loop thread (``PlayerFeature``); the store is read where the feature is
/// made and written on a thread of its own (`gst-prefetch-record`); plugins load on the
/// ``PluginPreloader``'s thread.
public final class PluginPrefetchFeature: PlayerFeature {
    private let store: PluginPrefetchStore
    /// The store's records when the feature was made (read then: before the player waits for
    /// GStreamer's initialisation, not on the way to a preroll).
    private let records: [String: [String]]
    private var context: FeatureContext?
    /// The kind of the media being prerolled (``PluginPrefetchStore/kind(of:)``), nil when it
    /// has none or after its first preroll was recorded.
    private var pendingKind: String?

    /// A feature reading and recording in `store` (read now, on the calling thread).
    public init(store: PluginPrefetchStore) {
        self.store = store
        records = store.records()
    }

    /// Keeps `context`.
    public func attach(to context: FeatureContext) { self.context = context }

    /// Queues what the last play of `uri`'s kind needed (`PluginPreloader.prefetch`).
    public func willPreroll(uri: String) {
        pendingKind = PluginPrefetchStore.kind(of: uri)
        guard let kind = pendingKind, let plugins = records[kind] else { return }
        PluginPreloader.prefetch(plugins)
    }

    /// Records the media's plugins in the pipeline now (``FeaturePipeline/mediaPluginNames()``).
    public func prerolled() {
        guard let kind = pendingKind, let inPipeline = context?.pipeline.mediaPluginNames() else { return }
        // Oldest element first, the order the pipeline loaded them (a bin lists its newest child
        // first): a plugin it asks for early is then not queued behind a large one it asks for later.
        let plugins = inPipeline.reversed().filter { !GStreamerRuntime.startupPlugins.contains($0) }
        guard !plugins.isEmpty else { return }
        pendingKind = nil
        let store = store
        DetachedThread.start(name: "gst-prefetch-record") { store.record(plugins, for: kind) }
    }

    /// Forgets the kind of the media replaced.
    public func resetForNewMedia(uri: String?) { pendingKind = nil }
}
