import CGStreamer
import Synchronization

/// The adaptive-streaming component of the engine: follows the demuxer, runs the ABR policy
/// and raises ``AdaptiveEvent``s and the seed's ABR metrics.
///
/// - Reads the master playlist or DASH manifest through ``AdaptiveElements`` (the demuxer's own input).
/// - Reads `adaptive-streaming-statistics` element messages: per-fragment `uri`, `fragment-size`
///   (cumulative per variant in 1.22's `hlsdemux` and `dashdemux`, turned into per-segment sizes
///   here) and `fragment-download-time` (ns) feed the ``BandwidthEstimator``; `uri` + `bitrate`
///   mark an HLS switch, a segment from another representation's directory a DASH one.
/// - Applies each ``AdaptivePolicy`` decision by setting the demuxer's `connection-speed` (kbit/s)
///   to a value that selects exactly that variant; `hlsdemux2` has no per-fragment messages, so
///   there its `current-bandwidth` is the estimate, read on ``tick()``.
/// - Tracks stalls from the buffering levels the engine acts on.
///
/// **Thread:** loop thread only, except ``info`` (a `Mutex` snapshot, any thread).
final class AdaptiveMonitor {
    private(set) var policy: AdaptivePolicy
    let elements: AdaptiveElements
    private var estimator = BandwidthEstimator()
    private var stalls = StallTracker()
    private var current = AdaptiveInfo()
    private let shared = Mutex(AdaptiveInfo())
    /// The last cumulative `fragment-size` and the variant it counted.
    private var lastCumulative: (variant: Int?, bytes: Int)?
    /// The variant the current `connection-speed` selects, and why it was chosen.
    private var applied: (index: Int, reason: VariantSwitchReason)?
    private var announced = false

    /// The engine's frozen-position watch: where the position was and since when, or the level it
    /// posted while it holds playback.
    enum Watch { case idle, moving(MediaTime?, since: Double), holding(Int) }
    var watch = Watch.idle

    init(policy: AdaptivePolicy) {
        self.policy = policy
        self.elements = AdaptiveElements(policy: policy)
    }

    /// The latest information (any thread).
    var info: AdaptiveInfo { shared.withLock { $0 } }

    /// True once the loaded media turned out to be adaptive (a master playlist was read).
    var isAdaptive: Bool { !current.variants.isEmpty }

    /// Connects `deep-element-added` / `deep-element-removed` on `playbin`; the pipeline
    /// disconnects them at teardown.
    func attach(to pipeline: PlaybinPipeline) {
        guard let playbin = pipeline.object else { return }
        let added = CGStreamer_signal_connect_3(playbin, "deep-element-added", { _, parent, element, data in
            guard let element, let data else { return }
            CallbackBox<AdaptiveElements>.from(data).value.added(element.assumingMemoryBound(to: GstElement.self), parent: parent)
        }, CallbackBox(elements).retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: added, on: playbin)
        let removed = CGStreamer_signal_connect_3(playbin, "deep-element-removed", { _, _, element, data in
            guard let element, let data else { return }
            CallbackBox<AdaptiveElements>.from(data).value.removed(element.assumingMemoryBound(to: GstElement.self))
        }, CallbackBox(elements).retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: removed, on: playbin)
    }

    /// Forgets the previous media (new load, stop, teardown) and drops element references.
    func reset(uri: String?) {
        elements.reset(uri: uri ?? "")
        estimator.reset()
        stalls = StallTracker()
        lastCumulative = nil
        applied = nil
        announced = false
        watch = .idle
        current = AdaptiveInfo()
        current.pinned = policy.pinned
        publishInfo()
    }

    /// The seed's ABR metrics for ``PlayerStatistics``, nil when the media is not adaptive.
    var metrics: ABRMetrics? { isAdaptive ? current.metrics : nil }

    // MARK: Inputs (loop thread)

    /// One `adaptive-streaming-statistics` structure.
    func handleStatistics(_ structure: UnsafePointer<GstStructure>) -> [AdaptiveEvent] {
        var events = announceVariants()
        guard let uri = string(structure, "uri") else { return events }
        var bitrate: guint = 0
        if gst_structure_has_field(structure, "bitrate") != 0 {
            if gst_structure_get_uint(structure, "bitrate", &bitrate) == 0 {
                var signed: gint = 0
                if gst_structure_get_int(structure, "bitrate", &signed) != 0 { bitrate = guint(max(signed, 0)) }
            }
            if let index = current.variants.firstIndex(where: { $0.uri == uri }) {
                events += switched(to: index, reason: applied.flatMap { $0.index == index ? $0.reason : nil } ?? .demuxer)
            }
            return events
        }
        var downloadTime: guint64 = 0, size: guint64 = 0
        guard gst_structure_get_uint64(structure, "fragment-download-time", &downloadTime) != 0,
              gst_structure_get_uint64(structure, "fragment-size", &size) != 0 else { return events }
        let variant = variantIndex(ofSegment: uri)
        // 1.22's hlsdemux counts fragment-size cumulatively per variant since the last switch.
        var bytes = Int(size)
        if let last = lastCumulative, last.variant == variant, bytes > last.bytes { bytes -= last.bytes }
        lastCumulative = (variant, Int(size))
        let download = SegmentDownload(uri: uri, variant: variant, sequence: Self.sequence(of: uri),
                                       bytes: bytes, seconds: Double(downloadTime) / 1e9)
        current.downloads.append(download)
        if current.downloads.count > AdaptiveInfo.downloadHistory { current.downloads.removeFirst() }
        estimator.add(bytes: bytes, seconds: download.seconds)
        current.estimatedBandwidth = estimator.bitsPerSecond.map { Int($0) }
        if let variant, current.current == nil {
            events += switched(to: variant, reason: .start)
        } else if let variant, variant != current.current, elements.found.demuxerKind?.hasPrefix("dashdemux") == true {
            // dashdemux announces no representation change; the segment's directory tells it.
            events += switched(to: variant, reason: applied.flatMap { $0.index == variant ? $0.reason : nil } ?? .demuxer)
        }
        current.metrics.requestedSegment = uri
        current.metrics.requestedSequence = download.sequence
        current.metrics.requestedProfile = variant.map { current.variants[$0].bandwidth }
        current.metrics.maxProfile = policy.maxProfile(current.variants)?.bandwidth
        decide()
        publishInfo()
        return events
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

    /// A buffering level the engine acted on (below 100: it paused; 100: it resumed).
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
            decide()
        }
        publishInfo()
        return events
    }

    /// Replaces the policy (caps, pin, start, ratio, min buffer) and applies it at once.
    func setPolicy(_ policy: AdaptivePolicy) {
        self.policy = policy
        elements.update(policy: policy)
        current.pinned = policy.pinned
        current.metrics.maxProfile = isAdaptive ? policy.maxProfile(current.variants)?.bandwidth : nil
        decide()
        publishInfo()
    }

    // MARK: Decisions

    /// Runs the policy and sets `connection-speed` when the chosen variant changes.
    private func decide() {
        guard isAdaptive else { return }
        let reference = applied?.index ?? current.current
        guard let (target, reason) = policy.select(current.variants, current: reference,
                                                   estimate: estimator.bitsPerSecond ?? current.estimatedBandwidth.map(Double.init)) else { return }
        if applied?.index == target { return }
        let speed = AdaptivePolicy.connectionSpeed(selecting: target, of: current.variants)
        _ = elements.withDemuxer { demuxer, _ in CGStreamer_set_uint(demuxer, "connection-speed", speed) }
        applied = (target, target == current.current ? .start : reason)
    }

    private func switched(to index: Int, reason: VariantSwitchReason) -> [AdaptiveEvent] {
        guard current.variants.indices.contains(index), current.current != index else { return [] }
        let from = current.currentVariant
        if from != nil { current.switchCount += 1 }
        current.current = index
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
            if let initial = elements.found.initial { applied = (initial, .start) }
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

    /// Marks the stream live (from the engine's facts: no duration on an adaptive stream).
    func setLive(_ live: Bool) {
        guard current.isLive != live else { return }
        current.isLive = live
        publishInfo()
    }

    /// The live stream's DVR window (stream time), from the engine's seeking query.
    func setLiveWindow(_ window: ClosedRange<MediaTime>?) {
        guard current.liveWindowStart != window?.lowerBound || current.liveWindowEnd != window?.upperBound else { return }
        current.liveWindowStart = window?.lowerBound
        current.liveWindowEnd = window?.upperBound
        publishInfo()
    }

    private func publishInfo() {
        let snapshot = current
        shared.withLock { $0 = snapshot }
    }

    /// The variant whose media playlist directory holds `segment`.
    private func variantIndex(ofSegment segment: String) -> Int? {
        current.variants.last { variant in
            guard let slash = variant.uri.lastIndex(of: "/") else { return false }
            return segment.hasPrefix(variant.uri[...slash])
        }?.index
    }

    /// The media sequence number in a segment name: its last run of digits (`segment00012.ts` → 12).
    static func sequence(of uri: String) -> Int? {
        let name = uri.split(separator: "/").last.map(String.init) ?? uri
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        let digits = stem.reversed().prefix { $0.isNumber }
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }

    private func string(_ structure: UnsafePointer<GstStructure>, _ field: String) -> String? {
        gst_structure_get_string(structure, field).map { String(cString: $0) }
    }
}
