import BackendAdaptive
import BackendCache
import BackendChapters
import BackendCore
import BackendQueue
import BackendTags
import BackendThumbnails
import BackendTracks
import BackendWindow

/// The features a ``Player`` made by the umbrella `Backend` target gets, with their options:
/// the umbrella knows every feature target; the core knows none. Each feature target adds its
/// options here and its instance in ``makeFeatures(for:)``, in the order the core calls them.
public struct StandardFeatures: Sendable {
    /// The defaults.
    public init() {}

    /// The media cache of complete http(s) downloads (seed 001), nil (the default) for none. With
    /// one, an http(s) URI found in it plays from the local file with no network request; one not
    /// found plays with download buffering and is stored once every byte arrived (``CacheFeature``).
    public var cache: MediaCache?

    /// Adaptive streaming (HLS/DASH): start variant, caps, pin, safety ratio, buffer to refill
    /// after a stall (`AdaptiveFeature`). Changeable later with ``Player/setAdaptivePolicy(_:)``.
    public var adaptivePolicy = AdaptivePolicy()
    /// Tracks: text subtitles as ``TracksEvent/subtitleCue(_:)`` events (default) or drawn into the video.
    public var subtitleRendering: SubtitleRendering = .events
    /// Tracks: after switching the audio or video track, seek (accurate, flushing) to the current
    /// position so the new track is heard/seen at once instead of after what playbin already
    /// queued (about 1 s). Default true; see docs/ADR-001-playbin.md.
    public var flushOnTrackSwitch = true

    /// Tags: what audio-only media shows in a window (issue 23): `.none` (the default), `.auto`
    /// (its cover art, else a visualiser) or a named visualiser. Never with fake sinks.
    public var visualization: AudioVisualization = .none

    /// Fresh feature instances for one player.
    public func makeFeatures(for configuration: PlayerConfiguration) -> [any PlayerFeature] {
        var features: [any PlayerFeature] = []
        features.append(QueueFeature())
        _ = configuration
        if let cache { features.append(CacheFeature(cache: cache)) }
        features.append(AdaptiveFeature(policy: adaptivePolicy))
        features.append(WindowFeature(mediaTitle: { $0.tags.title }))   // the container title tag (TracksMediaInfo)
        features.append(ThumbnailsFeature())
        features.append(TracksFeature(subtitleRendering: subtitleRendering, flushOnTrackSwitch: flushOnTrackSwitch))
        features.append(ChaptersFeature())
        features.append(TagsFeature(visualization: visualization))
        return features
    }
}

public extension Player {
    /// A player with the standard features (``StandardFeatures``), set up by `standard`.
    /// - Parameters:
    ///   - configuration: the core's settings.
    ///   - standard: the features' options.
    ///   - delegate: receives events (held weakly).
    convenience init(configuration: PlayerConfiguration = PlayerConfiguration(), standard: StandardFeatures = StandardFeatures(),
                     delegate: (any PlayerDelegate)? = nil) {
        self.init(configuration: configuration, features: standard.makeFeatures(for: configuration), delegate: delegate)
    }
}
