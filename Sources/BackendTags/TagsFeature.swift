import BackendCore
import CGStreamer

/// Tags and cover art as a `PlayerFeature`: the media's global tags from every
/// `GST_MESSAGE_TAG`, plus — for a file whose only stream is one audio stream (an MP3, an Ogg
/// Vorbis file) — that stream's tags (playbin `get-audio-tags`), where ID3 frames and Vorbis
/// comments arrive. Global tags win over the stream's.
///
/// Publishes ``TagsEvent/tagsChanged(_:coverArt:)`` at preroll and on every later change,
/// keeps ``TagsSection`` in the snapshot (`Player.mediaTags`, `Player.coverArt`) and in the media
/// info (`MediaInfo.tags`, `MediaInfo.coverArt`). With a ``AudioVisualization`` other than
/// `.none` and a window sink, audio-only media gets a picture in the window (`AudioPicture`).
///
/// **Thread:** every method runs on the loop thread, the only one that touches its state
/// (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle).
public final class TagsFeature: PlayerFeature {
    /// The global tags seen since the load.
    private var global = MediaTags()
    /// The picture among the global tags, if any.
    private var globalArt: CoverArt?
    /// What was last published (``TagsSection``).
    private var published = TagsSection()
    /// Whether anything was published for this load.
    private var publishedOnce = false
    /// The core's context, set by ``attach(to:)``.
    private var context: FeatureContext?
    /// The picture for audio-only media in the window.
    let picture: AudioPicture

    /// A tags feature; `visualization` says what audio-only media shows in a window
    /// (default `.none`: nothing, playbin as without this feature).
    public init(visualization: AudioVisualization = .none) {
        picture = AudioPicture(mode: visualization)
    }

    /// Keeps the context; readies the picture (nothing is set on playbin yet).
    public func attach(to context: FeatureContext) {
        self.context = context
        picture.attach(to: context)
    }

    /// Releases the picture's elements.
    public func teardown() { picture.teardown() }

    /// A new load (or a stop): forgets the old media's tags and picture.
    public func resetForNewMedia(uri: String?) {
        global = MediaTags()
        globalArt = nil
        published = TagsSection()
        publishedOnce = false
        context?.updateSnapshot(published)
        picture.show(nil)
    }

    /// playbin's `vis` flag and `vis-plugin` for this load (`AudioPicture`).
    public func willPreroll(uri: String) { picture.prepare() }

    /// `GST_MESSAGE_TAG`: global lists are merged into the media's tags; after preroll every
    /// list (a stream's too) re-reads the tags and publishes a change.
    public func observe(message: UnsafeMutablePointer<GstMessage>) {
        guard CGStreamer_message_type(message) == GST_MESSAGE_TAG else { return }
        withTags(of: message) { list in
            guard TagReader.isGlobal(list) else { return }
            TagReader.absorb(list, into: &global)
            if let art = TagReader.coverArt(in: list) { globalArt = art }
        }
        if context?.progress.prerolled == true { refresh() }
    }

    /// Publishes the tags known at preroll (before the core's media info, which carries them).
    public func prerolled() { refresh() }

    /// The tags and picture (``TagsSection``).
    public func contributeMediaInfo(to sections: inout FeatureSections) { sections[TagsSection.self] = published }

    /// Merges the global tags with the sole audio stream's, publishes them when they changed
    /// (or were never published and are not empty), and hands a new picture to the window.
    private func refresh() {
        guard let context else { return }
        var merged = global
        var art = globalArt
        if let stream = Self.soleAudioStreamTags(of: context.pipeline) {
            defer { gst_tag_list_unref(stream) }
            var streamTags = MediaTags()
            TagReader.absorb(stream, into: &streamTags)
            merged = merged.filled(from: streamTags)
            if art == nil { art = TagReader.coverArt(in: stream) }
        }
        let section = TagsSection(tags: merged, coverArt: art)
        guard section != published || (!publishedOnce && section != TagsSection()) else { return }
        let newArt = section.coverArt != published.coverArt
        published = section
        publishedOnce = true
        context.updateSnapshot(section)
        context.publish(TagsEvent.tagsChanged(merged, coverArt: art))
        if newArt { picture.show(art) }
    }

    /// The tags of the media's one audio stream (`get-audio-tags 0`) when it has no other
    /// stream (`n-audio` 1, `n-video` and `n-text` 0); a new list the caller unrefs, else nil.
    static func soleAudioStreamTags(of pipeline: FeaturePipeline) -> UnsafeMutablePointer<GstTagList>? {
        guard pipeline.streamCount(.audio) == 1, pipeline.streamCount(.video) == 0, pipeline.streamCount(.text) == 0 else { return nil }
        return pipeline.streamTags(.audio, index: 0)
    }
}
