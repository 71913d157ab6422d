import BackendCore
import CGStreamer

/// The work of ``AdaptiveFeature``: follows the demuxer, runs the ABR policy and raises
/// ``AdaptiveEvent``s and the seed's ABR metrics.
///
/// - Reads the master playlist or DASH manifest through ``AdaptiveElements`` (the demuxer's own input).
/// - Reads `adaptive-streaming-statistics` element messages: per-fragment `uri`, `fragment-size`
///   (cumulative: per variant in 1.22's `hlsdemux`, per stream in `dashdemux`, ``FragmentSizeCounting``; turned into per-segment sizes
///   here) and `fragment-download-time` (ns) feed the ``BandwidthEstimator``; `uri` + `bitrate`
///   mark an HLS switch, a segment from another representation's directory a DASH one.
/// - Applies each ``AdaptivePolicy`` decision by setting the demuxer's `connection-speed` (kbit/s)
///   to a value that selects exactly that variant; `hlsdemux2` has no per-fragment messages, so
///   there its `current-bandwidth` is the estimate, read on ``tick()``.
/// - Tracks stalls from the buffering levels the core acts on.
/// - Keeps ``AdaptiveInfo`` in the player's snapshot (`FeatureContext.updateSnapshot(_:)`),
///   which `Player.adaptiveInfo` reads.
///
/// **Thread:** loop thread only.
final class AdaptiveMonitor {
    private(set) var policy: AdaptivePolicy
    let elements: AdaptiveElements
    private var stalls = StallTracker()
    private var current = AdaptiveInfo()
    private var announced = false
    /// Where ``info`` is published (set by ``attach(to:)``).
    private var context: FeatureContext?

    /// The feature's frozen-position watch: where the position was and since when, or the level it
    /// posted while it holds playback.
    enum Watch { case idle, moving(MediaTime?, since: Double), holding(Int) }
    var watch = Watch.idle
    /// The latency to the live edge and its catch-up rule (`AdaptiveFeature+LiveEdge.swift`).
    var liveEdge = LiveEdgeGuard()
    /// Asks for the live window off the loop thread (the query can wait for a playlist download).
    let liveWindowReader = LiveWindowReader()
    /// A live window was read since the last seek (the edge is measured only then).
    var liveWindowFresh = false
    /// The downloads moved to another variant's playlist and playbin has not posted STREAM_START
    /// since: the sinks still play the old variant's stream (loop thread).
    private var awaitingStreamStart = false

    init(policy: AdaptivePolicy) {
        self.policy = policy
        self.elements = AdaptiveElements(policy: policy)
    }

    /// The latest information.
    var info: AdaptiveInfo { current }

    /// True once the loaded media turned out to be adaptive (a master playlist was read).
    var isAdaptive: Bool { !current.variants.isEmpty }

    /// Watches the elements playbin adds and removes and, where the ABR decision runs
    /// (``VariantSelector``), the element messages as they are posted
    /// (`FeatureContext.pipeline.watchElements` / `watchElementMessagesSync`; the core
    /// disconnects them at teardown).
    func attach(to context: FeatureContext) {
        self.context = context
        context.pipeline.watchElements(added: { [elements] element, parent in elements.added(element, parent: parent) },
                                       removed: { [elements] element in elements.removed(element) })
        context.pipeline.watchElementMessagesSync { [elements] message in elements.messagePosted(message) }
    }

    /// Player teardown: drops every element reference and keeps none offered later (the signals
    /// stay connected until the core disconnects them).
    func close() {
        elements.close()
        context = nil
    }

    /// Forgets the previous media (new load, stop) and drops element references.
    func reset(uri: String?) {
        elements.reset(uri: uri ?? "")
        stalls = StallTracker()
        announced = false
        watch = .idle
        liveEdge = LiveEdgeGuard()
        liveWindowReader.reset()
        liveWindowFresh = false
        awaitingStreamStart = false
        current = AdaptiveInfo()
        current.pinned = policy.pinned
        publishInfo()
    }

    /// The seed's ABR metrics for `PlayerStatistics`, nil when the media is not adaptive.
    var metrics: ABRMetrics? { isAdaptive ? current.metrics : nil }

    // MARK: Inputs (loop thread)

    /// One `adaptive-streaming-statistics` structure.
    func handleStatistics(_ structure: UnsafePointer<GstStructure>) -> [AdaptiveEvent] {
        var events = announceVariants()
        guard let uri = string(structure, "uri") else { return events }
        if gst_structure_has_field(structure, "bitrate") != 0 {
            // hlsdemux fetched a media playlist: downloads move to that variant.
            if let index = current.variants.firstIndex(where: { $0.uri == uri }) {
                events += switched(to: index, reason: elements.selector.takePlaylistReason(uri: uri) ?? decisionReason(for: index))
            }
            return events
        }
        // The selector already counted the fragment and decided, on the demuxer's thread.
        let dash = elements.found.demuxerKind?.hasPrefix("dashdemux") == true
        for taken in elements.selector.takeDownloads() {
            let download = taken.segment
            current.downloads.append(download)
            if current.downloads.count > AdaptiveInfo.downloadHistory { current.downloads.removeFirst() }
            if let variant = download.variant, current.current == nil || (dash && variant != current.current) {
                // dashdemux announces no representation change; the segment's directory tells it.
                events += switched(to: variant, reason: taken.reason)
            }
            current.metrics.requestedSegment = download.uri
            current.metrics.requestedSequence = download.sequence
            current.metrics.requestedProfile = download.variant.map { current.variants[$0].bandwidth }
        }
        takeDecisions()
        current.estimatedBandwidth = elements.selector.estimate.map { WholeNumber.clamped($0, to: 0...Int.max) }
        current.metrics.maxProfile = policy.maxProfile(current.variants)?.bandwidth
        publishInfo()
        return events
    }

    /// Why the downloads moved to `index`: the reason of the decision that asked for it, else
    /// the demuxer's own choice.
    private func decisionReason(for index: Int) -> VariantSwitchReason {
        guard let applied = elements.selector.applied, applied.index == index else { return .demuxer }
        return applied.reason
    }

    /// An `http-headers` message (souphttpsrc) for a segment or media playlist of this stream
    /// answered with an error status: its URI and status. Counted in ``AdaptiveInfo/failedRequests``.
    func failedSegment(_ structure: UnsafePointer<GstStructure>) -> (uri: String, status: Int)? {
        guard isAdaptive, let uri = string(structure, "uri") else { return nil }
        var status: guint = 0
        guard gst_structure_get_uint(structure, "http-status-code", &status) != 0, status >= 400 else { return nil }
        current.failedRequests += 1
        publishInfo()
        return (uri, Int(status))
    }

    /// The pipeline reached PLAYING.
    func played() { stalls.played() }

    /// A buffering level the core acted on (below 100: it paused; 100: it resumed).
    func buffering(percent: Int, now: Double) -> [AdaptiveEvent] {
        guard isAdaptive else { return [] }
        return stallEvents(stalls.buffering(percent: percent, now: now), now: now)
    }

    /// End of stream or stop: a running stall ends.
    func finished(now: Double) -> [AdaptiveEvent] { stallEvents(stalls.finish(now: now), now: now) }

    /// Periodic refresh: announces variants, reads the buffer level and, for demuxers without
    /// per-fragment statistics, estimates and decides from `current-bandwidth`.
    func tick(now: Double) -> [AdaptiveEvent] {
        let events = announceVariants()
        guard isAdaptive else { return events }
        current.bufferSeconds = elements.bufferedSeconds()
        current.stalledSeconds = stalls.stalledSeconds(now: now)
        if elements.found.demuxerKind == "hlsdemux2" || elements.found.demuxerKind == "dashdemux2",
           let bandwidth = elements.withDemuxer({ d, _ in CGStreamer_get_uint(d, "current-bandwidth") }), bandwidth > 0 {
            current.estimatedBandwidth = Int(bandwidth)
            if let speed = elements.selector.demuxerEstimated(bitsPerSecond: Double(bandwidth), bufferSeconds: current.bufferSeconds),
               let loop = context?.loop {
                elements.setConnectionSpeedOffLoop(speed, on: loop)
            }
        }
        takeDecisions()
        publishInfo()
        return events
    }

    /// Replaces the policy (caps, pin, start, ratio, min buffer) and applies it at once.
    func setPolicy(_ policy: AdaptivePolicy) {
        self.policy = policy
        elements.update(policy: policy, loop: context?.loop)
        takeDecisions()
        current.pinned = policy.pinned
        current.metrics.maxProfile = isAdaptive ? policy.maxProfile(current.variants)?.bandwidth : nil
        publishInfo()
    }

    // MARK: Reports

    private func switched(to index: Int, reason: VariantSwitchReason) -> [AdaptiveEvent] {
        guard current.variants.indices.contains(index), current.current != index else { return [] }
        let from = current.currentVariant
        if from != nil { current.switchCount += 1 }
        current.current = index
        awaitingStreamStart = from != nil  // the first pick: its STREAM_START may come before the statistics
        publishInfo()
        return [.variantSwitched(from: from, to: current.variants[index], reason: from == nil ? .start : reason)]
    }

    private func announceVariants() -> [AdaptiveEvent] {
        guard !announced, let playlist = elements.found.playlist else { return [] }
        announced = true
        switch playlist {
        case .master(let variants):
            current.variants = variants
            current.metrics.maxProfile = policy.maxProfile(variants)?.bandwidth
            publishInfo()
            return [.variantsAvailable(variants)]
        case .media(let isLive):
            current.isLive = isLive
            publishInfo()
            return []
        case .invalid:
            return []
        }
    }

    private func stallEvents(_ edge: StallTracker.Edge?, now: Double) -> [AdaptiveEvent] {
        guard let edge else { return [] }
        current.stalled = stalls.isStalled
        current.stallCount = stalls.count
        current.stalledSeconds = stalls.stalledSeconds(now: now)
        publishInfo()
        switch edge {
        case .started: return [.stallStarted]
        case .ended(let seconds): return [.stallEnded(seconds: seconds)]
        }
    }

    // MARK: Helpers

    /// Marks the stream live (from the core's facts: no duration on an adaptive stream).
    func setLive(_ live: Bool) {
        guard current.isLive != live else { return }
        current.isLive = live
        publishInfo()
    }

    /// The live stream's DVR window (stream time), from the core's seeking query.
    func setLiveWindow(_ window: ClosedRange<MediaTime>?) {
        guard current.liveWindowStart != window?.lowerBound || current.liveWindowEnd != window?.upperBound else { return }
        current.liveWindowStart = window?.lowerBound
        current.liveWindowEnd = window?.upperBound
        publishInfo()
    }

    /// Copies the live-edge guard's latency, bound and catch-up count into ``info``.
    func publishLiveEdge() {
        guard current.liveLatencySeconds != liveEdge.latency || current.liveLatencyBound != liveEdge.bound
                || current.liveCatchUps != liveEdge.catchUps else { return }
        current.liveLatencySeconds = liveEdge.latency
        current.liveLatencyBound = liveEdge.bound
        current.liveCatchUps = liveEdge.catchUps
        publishInfo()
    }

    /// Moves the selector's new decisions into ``AdaptiveInfo/decisions`` (bounded).
    private func takeDecisions() {
        current.decisions += elements.selector.takeDecisions()
        if current.decisions.count > AdaptiveInfo.downloadHistory { current.decisions.removeFirst(current.decisions.count - AdaptiveInfo.downloadHistory) }
    }

    private func publishInfo() { context?.updateSnapshot(current) }

    /// True once the sinks play the stream of the variant the downloads are on: STREAM_START
    /// came after the switch to its playlist. 1.22's `hlsdemux` prepares a new stream for each
    /// switch and exposes it with its first buffer; decodebin links its group once the old one
    /// drained. A seek before that goes up the old group and is lost, or cancels the unexposed
    /// stream for good (`AdaptiveFeature+LiveEdge.swift`). Loop thread.
    var currentVariantExposed: Bool { current.current != nil && !awaitingStreamStart }

    /// playbin posted STREAM_START: every sink has the newest group's stream (loop thread).
    func streamStarted() { awaitingStreamStart = false }

    private func string(_ structure: UnsafePointer<GstStructure>, _ field: String) -> String? {
        gst_structure_get_string(structure, field).map { String(cString: $0) }
    }
}
