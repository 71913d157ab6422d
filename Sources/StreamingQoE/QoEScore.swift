/// A played adaptive-streaming session as the QoE benchmark records it: the bitrate
/// of every fragment played, in order, the stalls after playback started, and the startup time.
/// A value type: any thread.
public struct PlayedSession: Sendable, Equatable {
    /// One fragment played: its media duration and the bitrate of the variant it came from.
    public struct Fragment: Sendable, Equatable {
        /// Media seconds in the fragment (> 0).
        public var seconds: Double
        /// The variant's bitrate, in kbit/s (the playlist's BANDWIDTH or the measured mean).
        public var kbps: Double

        /// A fragment; any thread.
        public init(seconds: Double, kbps: Double) {
            self.seconds = seconds
            self.kbps = kbps
        }
    }

    /// One stall (rebuffering) after playback started: wall-clock seconds from the load.
    public struct Stall: Sendable, Equatable, Codable {
        /// When playback stopped for lack of data.
        public var start: Double
        /// When it resumed (≥ start).
        public var end: Double

        /// A stall; any thread.
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }

        /// `end - start`, never negative.
        public var seconds: Double { max(0, end - start) }
    }

    /// The fragments in play order.
    public var fragments: [Fragment]
    /// The stalls after the first frame (startup is not a stall).
    public var stalls: [Stall]
    /// Seconds from the load to the first frame; nil when it never played.
    public var startupSeconds: Double?

    /// A session; any thread.
    public init(fragments: [Fragment], stalls: [Stall], startupSeconds: Double?) {
        self.fragments = fragments
        self.stalls = stalls
        self.startupSeconds = startupSeconds
    }
}

/// The QoE figures of one session, in the units the ABR literature uses. Pure code:
/// any thread.
///
/// The score is the linear QoE of MPC (Yin et al., SIGCOMM 2015) and Pensieve (Mao et al.,
/// SIGCOMM 2017): `QoE = Σₙ q(Rₙ) − μ · Σ stall seconds − Σₙ |q(Rₙ₊₁) − q(Rₙ)|` over the
/// fragments played, with `q(R) = R` in Mb/s (`QoEScore.rebufferPenalty` μ = 4.3, the highest
/// bitrate of Pensieve's ladder in Mb/s; `QoEScore.smoothnessPenalty` = 1). Startup time is
/// reported, not scored (MPC's startup weight μₛ is 0 here), as in Pensieve's QoE_lin.
public struct QoEScore: Sendable, Equatable {
    /// μ: the score lost per second of rebuffering, in Mb/s·s⁻¹ (4.3, as MPC/Pensieve).
    public static let rebufferPenalty = 4.3
    /// The weight of each |bitrate change| in Mb/s (1, as MPC/Pensieve).
    public static let smoothnessPenalty = 1.0

    /// Mean bitrate played, in Mb/s, weighted by fragment duration (0 with no fragment).
    public var averageMbps: Double
    /// How many stalls.
    public var stallCount: Int
    /// Total stalled seconds.
    public var stallSeconds: Double
    /// Seconds from the load to the first frame (nil: never played).
    public var startupSeconds: Double?
    /// Changes of bitrate between consecutive fragments.
    public var switchCount: Int
    /// Of which upwards.
    public var upSwitches: Int
    /// Of which downwards.
    public var downSwitches: Int
    /// |Δ bitrate| of each switch, in Mb/s, in order.
    public var switchSizesMbps: [Double]
    /// Σ bitrate, Mb/s, over the fragments.
    public var bitrateSum: Double
    /// μ · stall seconds.
    public var rebufferPenaltyTotal: Double
    /// Σ |Δ bitrate|, Mb/s.
    public var smoothnessPenaltyTotal: Double
    /// The linear QoE: `bitrateSum − rebufferPenaltyTotal − smoothnessPenaltyTotal`.
    public var qoe: Double
    /// `qoe` divided by the number of fragments (0 with none): comparable across lengths.
    public var qoePerFragment: Double

    /// Scores `session`.
    public init(_ session: PlayedSession) {
        let mbps = session.fragments.map { $0.kbps / 1000 }
        let seconds = session.fragments.reduce(0) { $0 + $1.seconds }
        averageMbps = seconds > 0 ? zip(mbps, session.fragments).reduce(0) { $0 + $1.0 * $1.1.seconds } / seconds : 0
        stallCount = session.stalls.count
        stallSeconds = session.stalls.reduce(0) { $0 + $1.seconds }
        startupSeconds = session.startupSeconds
        let changes = zip(mbps, mbps.dropFirst()).map { $1 - $0 }.filter { $0 != 0 }
        switchCount = changes.count
        upSwitches = changes.filter { $0 > 0 }.count
        downSwitches = changes.filter { $0 < 0 }.count
        switchSizesMbps = changes.map(abs)
        bitrateSum = mbps.reduce(0, +)
        rebufferPenaltyTotal = Self.rebufferPenalty * stallSeconds
        smoothnessPenaltyTotal = Self.smoothnessPenalty * switchSizesMbps.reduce(0, +)
        qoe = bitrateSum - rebufferPenaltyTotal - smoothnessPenaltyTotal
        qoePerFragment = mbps.isEmpty ? 0 : qoe / Double(mbps.count)
    }
}
