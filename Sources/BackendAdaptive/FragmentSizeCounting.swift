/// What the `fragment-size` of a legacy adaptive demuxer's `adaptive-streaming-statistics`
/// counts (GStreamer 1.22, `GstAdaptiveDemuxStream::download_total_bytes`): never one fragment,
/// but every byte the demuxer's *stream* downloaded so far. When that stream restarts differs:
///
/// - `hlsdemux` exposes new pads for a variant switch ("Subclass wants new pads"), a new stream
///   whose count starts at zero: the count is **per variant** (``perVariant``).
/// - `dashdemux` keeps its stream and pads across a representation switch (it only sets new
///   caps): the count runs on **across representations** (``perStream``). Seen on the fixture
///   ladder's DASH rendition (`gst-launch-1.0 -m playbin`, 2026-11-25): 240p segment 0 = 87 984,
///   then 480p segment 1 = 337 648 (87 984 + its own 249 664). Read per variant, the first
///   fragment of every switch would count as the whole session's bytes: a throughput many times the
///   link's, which sends both rules back up to 720p on a 600 kbit/s link (DASH).
///
/// Pure; used by `VariantSelector` under its lock, on the demuxer's streaming thread.
enum FragmentSizeCounting: Sendable, Equatable {
    /// The count restarts with each variant (`hlsdemux`).
    case perVariant
    /// The count runs on across variants; it restarts only with a new stream (`dashdemux`).
    case perStream

    /// The counting of the demuxer factory named `kind` (`dashdemux` counts per stream; the
    /// others per variant).
    init(demuxer kind: String?) {
        self = kind?.hasPrefix("dashdemux") == true ? .perStream : .perVariant
    }

    /// The bytes of the fragment just finished: `cumulative` (its `fragment-size`, from a segment
    /// of `variant`) less the previous count `last` when both belong to the same count; the whole
    /// of `cumulative` when the count restarted (a new variant's stream, or a count that went down).
    func fragmentBytes(cumulative: Int, variant: Int?, last: (variant: Int?, bytes: Int)?) -> Int {
        guard let last, cumulative > last.bytes else { return cumulative }
        switch self {
        case .perVariant: return last.variant == variant ? cumulative - last.bytes : cumulative
        case .perStream: return cumulative - last.bytes
        }
    }
}
