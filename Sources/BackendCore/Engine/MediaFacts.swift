/// What the engine knows about the media loaded now; all of it is forgotten on the next load.
///
/// **Thread:** a value owned by the engine on the loop thread.
struct MediaFacts {
    /// The URI being played (nil when the location was invalid).
    var uri: String?
    /// The source is live (`GST_STATE_CHANGE_NO_PREROLL`): no buffering policy, no duration.
    var isLive = false
    /// The duration last queried, nil while unknown.
    var duration: MediaTime?
    /// The duration last announced, so a re-query after DURATION_CHANGED only speaks on change.
    var publishedDuration: MediaTime?
    /// The video display size, nil when there is no video (or it is not known yet).
    var mediaSize: VideoSize?
    /// Decoders pbutils reported missing (`missing-plugin` element messages).
    var missingPlugins: [String] = []
    /// Status of the last HTTP response (`http-headers` element message).
    var lastHTTPStatus: Int?
    /// What the last response's headers tell about its body (``Engine/absorbResponseHead(_:)``).
    var response = ResponseHead()
    /// The whole body's size as the load's first answer announced it (``ResponseHead/announcedSize(status:contentLength:contentRange:)``).
    var announcedSize: Int?
    /// Reloads left after a network failure (seed 001: retry once).
    var networkRetriesLeft = 1
    /// The `Location` of the last 3xx response (automatic redirects are off; ``Engine/followRedirect(_:)``).
    var redirectLocation: String?
    /// The URIs redirects led to so far, in order (the last one is playing).
    var redirects: [String] = []
    /// A ``ConnectionProbe`` already looked at this load's failure (one per load).
    var connectionProbed = false
    /// How long a live source has been asked to play without sending data (``Engine/watchLiveSource()``).
    var liveSilence: Duration = .zero
    /// Last buffering level acted on, to drop repeats.
    var lastBufferingPercent: Int?
    /// Name of the element that last posted a `GST_BUFFERING_DOWNLOAD` level (a
    /// `downloadbuffer`), re-asked while the player holds for it.
    var downloadBufferName: String?
    /// A feature marked the media live although it prerolled (``FeatureMedia/markLive()``).
    var isLiveWindow = false
    /// The live window a feature last read off the loop thread (``FeatureMedia/updateLiveWindow(_:)``):
    /// live seeks resolve against it instead of asking playbin on the loop thread.
    var liveWindowRead: ClosedRange<MediaTime>?
    /// A feature reads the live window (``liveWindowRead`` is its answer, nil included).
    var liveWindowProvided = false
    /// After a gapless hand-over, position queries may still answer from the previous item's
    /// segment: positions at or above this are stale until the first one below it arrives.
    var stalePositionsFrom: MediaTime?

    /// True for a position left over from the previous media (see ``stalePositionsFrom``).
    mutating func isStale(_ position: MediaTime) -> Bool {
        guard let limit = stalePositionsFrom else { return false }
        if position >= limit { return true }
        stalePositionsFrom = nil
        return false
    }

    /// True when the URI is fetched over HTTP(S).
    var isNetworkURI: Bool {
        guard let uri else { return false }
        return URIScheme.isHTTP(uri)
    }

    /// Everything forgotten, for a new load of `uri`.
    mutating func reset(uri: String?) { self = MediaFacts(uri: uri) }
}
