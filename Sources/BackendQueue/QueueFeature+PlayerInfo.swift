import BackendCore
import CGStreamer

/// The current item's ``QueueItemInfo`` from the player itself, not from a second pipeline: when
/// the item prerolls, its duration, its streams (playbin's `n-video`/`n-audio`) and its title,
/// artist and album (the load's global `GST_MESSAGE_TAG` lists, then — for a file whose only
/// stream is one audio stream — that stream's tags, playbin's `get-audio-tags`; the same choice
/// as ``MediaDiscoverer``'s) are what a `GstDiscoverer` would have found. A discoverer reading the
/// file beside the pipeline playing it cost a headless play's peak about 2.7 MiB (release build,
/// docs/BENCHMARKS.md "The floor"). Items that have not played yet are still discovered.
///
/// An item the player cannot describe this way is left to the discoverer: a still image (playbin
/// reports no duration for it, where the discoverer tells an image from a video) or a load whose
/// streams are not known at preroll.
///
/// **Thread:** loop thread, like the rest of ``QueueFeature``.
struct PlayerItemInfo {
    /// The global tags' title, artist and album seen since the load (first value of each wins).
    var title: String?
    var artist: String?
    var album: String?
    /// The item whose info came from the player, while it is loaded: later global tags update it.
    var itemID: Int?

    /// Keeps the first title, artist and album of a global tag list (`GST_TAG_SCOPE_GLOBAL`);
    /// true when one of them was new.
    mutating func absorb(_ list: UnsafeMutablePointer<GstTagList>) -> Bool {
        guard gst_tag_list_get_scope(list) == GST_TAG_SCOPE_GLOBAL else { return false }
        let before = (title, artist, album)
        fill(from: list)
        return before != (title, artist, album)
    }

    /// Takes title, artist and album from `list` where none is known yet.
    mutating func fill(from list: UnsafeMutablePointer<GstTagList>) {
        if title == nil { title = MediaDiscoverer.string(list, GST_TAG_TITLE) }
        if artist == nil { artist = MediaDiscoverer.string(list, GST_TAG_ARTIST) }
        if album == nil { album = MediaDiscoverer.string(list, GST_TAG_ALBUM) }
    }
}

extension QueueFeature {
    /// `GST_MESSAGE_TAG` of the load: global tags are kept; once the current item's info came
    /// from the player, a change updates it.
    public func observe(message: UnsafeMutablePointer<GstMessage>) {
        guard isActive, CGStreamer_message_type(message) == GST_MESSAGE_TAG else { return }
        var changed = false
        withTags(of: message) { changed = playerInfo.absorb($0) || changed }
        if changed, playerInfo.itemID != nil { describeCurrentItemFromPlayer() }
    }

    /// A new load (or a stop): the tags seen belong to the previous one.
    public func resetForNewMedia(uri: String?) { playerInfo = PlayerItemInfo() }

    /// At preroll (and after a later global tag): stores the player's description of the current
    /// item and publishes ``QueueEvent/itemUpdated(index:item:)`` when it changed. Does nothing
    /// for an item the discoverer has already described, one that is not the loaded media, or one
    /// the player cannot describe (see ``PlayerItemInfo``).
    func describeCurrentItemFromPlayer() {
        guard let context, let index = queue.currentIndex, let item = try? queue.item(at: index), let id = item.id,
              item.uri == context.media.uri, item.info == nil || playerInfo.itemID == id,
              QueueFeature.isDiscoverable(item.uri), !context.media.isLive,
              let duration = context.media.duration, duration > .zero else { return }
        // After a gapless hand-over (`about-to-finish`, on a streaming thread) playbin's stream
        // counts and tags may be the next item's: checked before and after reading them.
        guard pending.isEmpty, !feeder.hasHandedOver else { return }
        let pipeline = context.pipeline
        let videos = pipeline.streamCount(.video), audios = pipeline.streamCount(.audio)
        var tags = playerInfo
        if audios == 1, videos == 0, pipeline.streamCount(.text) == 0, let stream = pipeline.streamTags(.audio, index: 0) {
            defer { gst_tag_list_unref(stream) }
            tags.fill(from: stream)
        }
        guard videos + audios > 0, !feeder.hasHandedOver else {
            context.trace("current item \(id) left to the discoverer: \(videos) video, \(audios) audio, hand-over \(feeder.hasHandedOver)")
            return
        }
        let info = QueueItemInfo(duration: duration, title: tags.title, artist: tags.artist, album: tags.album,
                                 hasVideo: videos > 0, hasAudio: audios > 0)
        playerInfo.itemID = id
        guard info != item.info, let stored = queue.setInfo(info, forID: id), let updated = try? queue.item(at: stored) else { return }
        if discovery.itemID == id { discovery.itemID = nil }       // its discovery's result is not needed
        context.trace("described item \(id) from the player: \(info)")
        publishSnapshot()
        context.publish(QueueEvent.itemUpdated(index: stored, item: updated))
    }
}
