import Synchronization

/// The ABR decision, made where the demuxer waits for it.
///
/// The legacy adaptive demuxers (1.22's `hlsdemux`, `dashdemux`) post a finished fragment's
/// `adaptive-streaming-statistics` and then pick the next fragment's bitrate from
/// `connection-speed`. The feature hands that message to ``fragmentDownloaded(uri:cumulativeBytes:seconds:bufferSeconds:counting:)``
/// synchronously, on the demuxer's own thread (`sync-message::element` on playbin's bus), so
/// each decision applies to the very next fragment. Made later on the loop thread, every
/// decision came one fragment late: under the bench's bandwidth profile the switch up came
/// after a second 240p segment, and the read-ahead that followed was four seconds shorter.
///
/// Owns the estimates (``BandwidthEstimator`` for ``ABRRule/throughput``, ``ThroughputHistory``
/// for ``ABRRule/bufferAware``), the policy and the variant last asked for; the loop thread's
/// `AdaptiveMonitor` reads them and takes the downloads and decisions for its reports.
///
/// **Threads:** any; the state sits behind one `Mutex`.
final class VariantSelector: Sendable {
    /// The variant the demuxer was last told to pick, and why.
    struct Applied: Sendable, Equatable {
        var index: Int
        var reason: VariantSwitchReason
    }

    /// A finished fragment and why its variant was downloaded.
    struct Download: Sendable, Equatable {
        var segment: SegmentDownload
        /// The reason of the decision in force when the fragment was requested (the demuxer
        /// picks each fragment's variant right after the previous fragment's decision);
        /// `.demuxer` when its variant is not the one asked for.
        var reason: VariantSwitchReason
    }

    private struct State {
        var policy: AdaptivePolicy
        var variants: [Variant] = []
        var estimator = BandwidthEstimator()
        var history = ThroughputHistory()
        /// The last cumulative `fragment-size` and the variant of its segment.
        var lastCumulative: (variant: Int?, bytes: Int)?
        var applied: Applied? { didSet { if let applied { asked[applied.index] = applied.reason } } }
        /// Why each variant was last asked for (a start, decision or restart), by index.
        var asked: [Int: VariantSwitchReason] = [:]
        /// A live catch-up restarted the ABR: the next fragment's decision sets the speed even unchanged.
        var restartPending = false
        /// A live catch-up waits (``holdForCatchUp(_:)``): decisions keep the start variant.
        var catchUpHold = false
        /// Downloads the loop thread has not taken yet (bounded).
        var downloads: [Download] = []
        /// Media playlists fetched (HLS: the downloads move to that variant) and why, for the
        /// loop thread (bounded).
        var playlists: [(uri: String, reason: VariantSwitchReason)] = []
        /// A decision moved away from the first variant asked for (``hasSwitched``).
        var switched = false
        /// Decisions the loop thread has not taken yet (bounded).
        var decisions: [ABRDecision] = []

        /// The estimate the rule in force decides on, bits/s.
        var estimate: Double? { policy.rule == .throughput ? estimator.bitsPerSecond : history.harmonicMean }
    }

    private let state: Mutex<State>

    init(policy: AdaptivePolicy) { state = Mutex(State(policy: policy)) }

    /// The policy in force.
    var policy: AdaptivePolicy { state.withLock { $0.policy } }
    /// The variant last asked for.
    var applied: Applied? { state.withLock { $0.applied } }
    /// True once a decision asked for another variant than the first one (a variant switch).
    var hasSwitched: Bool { state.withLock { $0.switched } }
    /// The bitrate of the variant last asked for (`AVERAGE-BANDWIDTH`, else `BANDWIDTH`), bits/s.
    var appliedBitrate: Int? {
        state.withLock { s in
            s.applied.flatMap { s.variants.indices.contains($0.index) ? s.variants[$0.index] : nil }.map { $0.averageBandwidth ?? $0.bandwidth }
        }
    }
    /// The bandwidth estimate of the rule in force, bits/s.
    var estimate: Double? { state.withLock { $0.estimate } }

    /// Forgets the previous stream; keeps the policy.
    func reset() {
        state.withLock { s in s = State(policy: s.policy) }
    }

    /// The ladder was read: the start variant (nil: the demuxer's own choice) and the
    /// `connection-speed` that selects it.
    func start(with variants: [Variant]) -> (index: Int, speed: UInt32)? {
        state.withLock { s in
            s.variants = variants
            guard let initial = s.policy.initialVariant(variants) else { return nil }
            s.applied = Applied(index: initial, reason: .start)
            s.decisions.append(ABRDecision(from: nil, to: initial, reason: .start, rule: s.policy.rule, bufferSeconds: nil,
                                           estimate: nil, fragmentSeconds: s.history.fragmentSeconds))
            return (initial, AdaptivePolicy.connectionSpeed(selecting: initial, of: variants))
        }
    }

    /// A new policy (caps, pin, ratio, rule…) with the buffer level now: the `connection-speed`
    /// to set when the choice changed.
    func update(policy: AdaptivePolicy, bufferSeconds: Double?) -> UInt32? {
        state.withLock { s in
            s.policy = policy
            return Self.decide(&s, estimate: s.estimate, bufferSeconds: bufferSeconds)
        }
    }

    /// One finished fragment (`fragment-size` is cumulative in 1.22's legacy demuxers, per
    /// variant or per stream as `counting` says; turned into this segment's bytes here): feeds the
    /// estimate, decides, and returns the `connection-speed` to set when the choice changed.
    /// `bufferSeconds`: the media buffered ahead as the fragment finished (``AdaptiveElements/bufferedSeconds()``).
    func fragmentDownloaded(uri: String, cumulativeBytes: Int, seconds: Double, bufferSeconds: Double?,
                            counting: FragmentSizeCounting = .perVariant) -> UInt32? {
        state.withLock { s in
            let variant = Self.variantIndex(ofSegment: uri, in: s.variants)
            let bytes = counting.fragmentBytes(cumulative: cumulativeBytes, variant: variant, last: s.lastCumulative)
            s.lastCumulative = (variant, cumulativeBytes)
            // Why this variant: the decision in force now, before this fragment's own decision.
            s.downloads.append(Download(segment: SegmentDownload(uri: uri, variant: variant, sequence: Self.sequence(of: uri), bytes: bytes, seconds: seconds),
                                        reason: Self.reason(for: variant, applied: s.applied)))
            if s.downloads.count > AdaptiveInfo.downloadHistory { s.downloads.removeFirst() }
            s.estimator.add(bytes: bytes, seconds: seconds)
            s.history.add(bytes: bytes, seconds: seconds, bitrate: variant.map { s.variants[$0].averageBandwidth ?? s.variants[$0].bandwidth })
            let decided = s.catchUpHold ? nil : Self.decide(&s, estimate: s.estimate, bufferSeconds: bufferSeconds)
            guard s.restartPending else { return decided }
            s.restartPending = false
            return decided ?? s.applied.map { AdaptivePolicy.connectionSpeed(selecting: $0.index, of: s.variants) }
        }
    }

    /// An estimate read from the demuxer (`current-bandwidth` of the demuxer2 family, which posts
    /// no per-fragment statistics): decides, returns the `connection-speed` to set on a change.
    func demuxerEstimated(bitsPerSecond: Double, bufferSeconds: Double?) -> UInt32? {
        state.withLock { s in s.catchUpHold ? nil : Self.decide(&s, estimate: s.estimate ?? bitsPerSecond, bufferSeconds: bufferSeconds) }
    }

    /// The decisions since the last call, oldest first.
    func takeDecisions() -> [ABRDecision] {
        state.withLock { s in
            defer { s.decisions.removeAll() }
            return s.decisions
        }
    }

    /// A live catch-up (`LiveEdgeGuard`): restarts as a new load does — the start variant
    /// (``AdaptivePolicy/initialVariant(_:)``; a pin wins) and an estimate from the fragments
    /// from now on, the old one having let playback fall behind. The `connection-speed` is
    /// returned by the next ``fragmentDownloaded(uri:cumulativeBytes:seconds:bufferSeconds:counting:)`` (the demuxer's
    /// thread), when the demuxer picks its next fragment.
    func restartForCatchUp() {
        state.withLock { s in
            guard let start = s.policy.initialVariant(s.variants) else { return }
            s.estimator.reset()
            s.history.reset()
            s.applied = Applied(index: start, reason: s.policy.pinned == start ? .pinned : .liveCatchUp)
            s.restartPending = true
        }
    }

    /// While a live catch-up waits for the start variant and a fresh window (`LiveEdgeGuard`'s
    /// `pending`), the ABR stays on the start variant: no decision is made from the fragments
    /// (``restartForCatchUp()`` set it). Loop thread; read on the demuxer's thread.
    func holdForCatchUp(_ hold: Bool) {
        state.withLock { $0.catchUpHold = hold }
    }

    /// The downloads since the last call, oldest first.
    func takeDownloads() -> [Download] {
        state.withLock { s in
            defer { s.downloads.removeAll() }
            return s.downloads
        }
    }

    /// `hlsdemux` fetched the media playlist `uri` (its statistics message with `bitrate`, on the
    /// demuxer's thread, once the playlist downloaded: a live catch-up may have asked for another
    /// variant meanwhile): notes why, the reason its variant was last asked for (`.demuxer` if
    /// never), for ``takePlaylistReason(uri:)``.
    func playlistFetched(uri: String) {
        state.withLock { s in
            s.playlists.append((uri, s.variants.firstIndex { $0.uri == uri }.flatMap { s.asked[$0] } ?? .demuxer))
            if s.playlists.count > AdaptiveInfo.downloadHistory { s.playlists.removeFirst() }
        }
    }

    /// Why the media playlist `uri` was fetched (``playlistFetched(uri:)``), taken once; nil when
    /// it was not noted. Notes before it are dropped.
    func takePlaylistReason(uri: String) -> VariantSwitchReason? {
        state.withLock { s in
            guard let i = s.playlists.firstIndex(where: { $0.uri == uri }) else { return nil }
            defer { s.playlists.removeFirst(i + 1) }
            return s.playlists[i].reason
        }
    }

    /// Why `variant` is downloaded when `applied` is the decision in force.
    private static func reason(for variant: Int?, applied: Applied?) -> VariantSwitchReason {
        guard let applied, applied.index == variant else { return .demuxer }
        return applied.reason
    }

    private static func decide(_ s: inout State, estimate: Double?, bufferSeconds: Double?) -> UInt32? {
        // Relative to what was asked for, else to what the demuxer chose itself (start `auto`).
        let reference = s.applied?.index ?? s.lastCumulative?.variant
        let fragmentSeconds = s.history.fragmentSeconds
        let choice = switch s.policy.rule {
        case .throughput: s.policy.select(s.variants, current: reference, estimate: estimate)
        case .bufferAware: BufferAwareRule(policy: s.policy).select(s.variants, current: reference, estimate: estimate,
                                                                     bufferSeconds: bufferSeconds, fragmentSeconds: fragmentSeconds,
                                                                     recentEstimate: s.history.recentHarmonicMean)
        }
        guard let (target, reason) = choice, s.applied?.index != target else { return nil }
        s.decisions.append(ABRDecision(from: s.applied?.index, to: target, reason: reason, rule: s.policy.rule,
                                       bufferSeconds: bufferSeconds, estimate: estimate, fragmentSeconds: fragmentSeconds))
        if s.decisions.count > AdaptiveInfo.downloadHistory { s.decisions.removeFirst() }
        if s.applied != nil { s.switched = true }
        s.applied = Applied(index: target, reason: reason)
        return AdaptivePolicy.connectionSpeed(selecting: target, of: s.variants)
    }

    /// The variant whose media playlist (or DASH segment template) directory holds `segment`.
    static func variantIndex(ofSegment segment: String, in variants: [Variant]) -> Int? {
        variants.last { variant in
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
}
