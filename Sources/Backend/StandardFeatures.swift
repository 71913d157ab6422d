import BackendAdaptive
import BackendCache
import BackendCast
import BackendChapters
import BackendCore
import BackendMPRIS
import BackendOSD
import BackendQueue
import BackendSync
import BackendTags
import BackendThumbnails
import BackendTracks
import BackendWindow

/// The features a ``Player`` made by the umbrella `Backend` target gets, with their options:
/// the umbrella knows every feature target; the core knows none. Each feature target adds its
/// options here and its instance in ``makeFeatures(for:)``, in the order the core calls them.
/// Not `Sendable` when it carries a ``sync`` feature (a feature belongs to one player's loop thread
/// once given to it), so it is not `Sendable` at all: make it where the player is made.
public struct StandardFeatures {
    /// The defaults.
    public init() {}

    /// The media cache of complete http(s) downloads (seed 001), nil (the default) for none. With
    /// one, an http(s) URI found in it plays from the local file with no network request; one not
    /// found plays with download buffering and is stored once every byte arrived (``CacheFeature``).
    public var cache: MediaCache?

    /// Adaptive streaming (HLS/DASH): start variant, caps, pin, safety ratio, buffer to refill
    /// after a stall (`AdaptiveFeature`). Changeable later with ``Player/setAdaptivePolicy(_:)``.
    public var adaptivePolicy = AdaptivePolicy()
    /// Tracks: subtitles drawn on the video when the video sink draws into a window, cue events
    /// (``TracksEvent/subtitleCue(_:)``) in every case (``SubtitleRendering/automatic``, the
    /// default); ``SubtitleRendering/events`` never draws.
    public var subtitleRendering: SubtitleRendering = .automatic
    /// Tracks: how drawn subtitles look (visibility, scale, position).
    public var subtitleStyle = SubtitleStyle()
    /// Tracks: which subtitle files next to a local media file load with it (mpv's `--sub-auto`;
    /// ``SubtitleAutoLoad/no``, the default, loads none).
    public var subtitleAutoLoad: SubtitleAutoLoad = .no
    /// The on-screen display (``OSDFeature``; only with a video window), with its seek preview
    /// (``OSDSettings/seekPreview``: pictures from a background ``ThumbnailTrack`` per file).
    public var osd = OSDSettings()
    /// Tracks: after switching the audio or video track, seek (accurate, flushing) to the current
    /// position so the new track is heard/seen at once instead of after what playbin already
    /// queued (about 1 s). Default true; see docs/ADR-001-playbin.md.
    public var flushOnTrackSwitch = true
    /// MPRIS 2 on the session bus (``MPRISFeature``, backed by the queue), nil (the default) for none.
    public var mpris: MPRISConfiguration?

    /// Tags: what audio-only media shows in a window: `.none` (the default), `.auto`
    /// (its cover art, else a visualiser) or a named visualiser. Never with fake sinks.
    public var visualization: AudioVisualization = .none

    /// Casting to UPnP/DLNA renderers (``CastFeature``): always present, idle (no network)
    /// until discovery or a cast is asked for; `interfaces` limits discovery.
    public var cast = CastSettings()

    /// A diagnostic log of every buffer the sinks render (``RenderLogFeature``), nil (the default) for none.
    public var renderLog: RenderLog?
    /// One tile of a video wall (``VideoWallFeature``: the picture cropped to it), nil (the default) for the whole picture.
    public var wall: VideoWall?
    /// Playing in sync across machines (``SyncFeature``, made with its role: a leader's opens its
    /// ports when made), nil (the default) for none. One instance belongs to one player.
    public var sync: SyncFeature?

    /// Loading ahead the plugins the last play of the same kind of media needed, recorded in this
    /// store (``PluginPrefetchFeature``), nil (the default) for none.
    public var pluginPrefetch: PluginPrefetchStore?

    /// Fresh feature instances for one player.
    public func makeFeatures(for configuration: PlayerConfiguration) -> [any PlayerFeature] {
        var features: [any PlayerFeature] = []
        if let pluginPrefetch { features.append(PluginPrefetchFeature(store: pluginPrefetch)) }   // first: its thread starts before the others' work
        let queue = QueueFeature()
        features.append(queue)
        _ = configuration
        if let cache { features.append(CacheFeature(cache: cache)) }
        features.append(AdaptiveFeature(policy: adaptivePolicy))
        let osd = OSDFeature(settings: osd, describe: StandardFeatures.osdMessage, previewSource: StandardFeatures.seekPreviewPictures)
        features.append(WindowFeature(mediaTitle: { $0.tags.title },   // the container title tag (TracksMediaInfo)
                                      pointerMoved: { [osd] x, y in osd.pointerMoved(x: x, y: y) }))
        features.append(ThumbnailsFeature())
        features.append(TracksFeature(subtitleRendering: subtitleRendering, flushOnTrackSwitch: flushOnTrackSwitch,
                                      subtitleStyle: subtitleStyle, subtitleAutoLoad: subtitleAutoLoad))
        features.append(ChaptersFeature())
        features.append(TagsFeature(visualization: visualization))
        if let mpris { features.append(MPRISFeature(configuration: mpris, queue: MPRISQueueAdapter(queue: queue), tags: MPRISTagsAdapter())) }
        features.append(osd)
        features.append(CastFeature(settings: cast, mediaTitle: { $0.tags.title }))
        if let wall { features.append(VideoWallFeature(wall: wall)) }
        if let renderLog { features.append(RenderLogFeature(log: renderLog)) }
        if let sync { features.append(sync) }
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

extension StandardFeatures {
    /// The OSD's message for another feature's event (``OSDFeature/Describe``): track
    /// selections as `Audio: English`, `Subtitles off`; chapter changes as `Chapter 2/5: Middle`
    /// (not the chapter playing as the list arrives, a load's start: ``ChaptersSnapshot/arrivedWithList``;
    /// a seek back to the first chapter is announced).
    @Sendable public static func osdMessage(for event: PlayerEvent, snapshot: PlayerSnapshot) -> String? {
        if case .chapterChanged(let chapter?)? = event.chaptersEvent {
            let section = snapshot.features[ChaptersSnapshot.self]
            guard section?.arrivedWithList != true else { return nil }
            let count = section?.chapters.count
            return "Chapter \(chapter.index + 1)\(count.map { "/\($0)" } ?? ""): \(chapter.displayTitle)"
        }
        guard case .trackSelected(let kind, let index)? = event.tracksEvent else { return nil }
        let label = kind == .audio ? "Audio" : kind == .video ? "Video" : "Subtitles"
        guard let index else { return "\(label) off" }
        let tracks = (snapshot.features[TracksSnapshot.self]?.tracks ?? []).filter { $0.kind == kind }
        let track = tracks.first { $0.index == index }
        let name = [track?.title, track?.languageName].compactMap { $0 }.first { !$0.isEmpty }
        return "\(label): \(name ?? "track \(index)")"
    }
}
