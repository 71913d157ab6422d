import CGStreamer

/// The buffer level of an adaptive stream read from decodebin's multiqueues
/// (`GstMultiQueuePad::current-level-time`), the level the buffer-aware rule decides on.
///
/// **Threads:** any (GObject property reads; the caller holds a reference on each queue for the
/// call): the loop thread's refresh and the demuxer's streaming thread when it decides.
enum BufferLevel {
    /// Media buffered ahead, seconds, nil when there is no multiqueue yet.
    ///
    /// - Once decodebin has exposed its group, the queues with `use-buffering` are the level: the
    ///   sum over them of each one's fullest pad. A variant switch under `hlsdemux` starts a new
    ///   group (new pads, a new multiqueue) while the old one drains, so the groups add up; a
    ///   drained pad (EOS) reads 0 and is not the level.
    /// - Before that (the first fragments, before preroll), decodebin keeps `use-buffering` off on
    ///   its queues while it prerolls; then the fullest queue is the level: what was downloaded and
    ///   not played yet. Without this, the first decisions were taken blind (nil).
    ///
    /// A queue in front of the container demuxer (after `hlsdemux`, holding MPEG-TS bytes) has no
    /// time level: its bytes count at `bitsPerSecond` (the variant being downloaded). After a
    /// variant switch under `hlsdemux` that is where the new variant's first fragment waits while
    /// the old group drains — most of it in the demuxer's download queue (`downloaded`, a
    /// `GstQueue` with `current-level-bytes`), which is counted the same way.
    static func seconds(in queues: [UnsafeMutablePointer<GstElement>], downloaded: [UnsafeMutablePointer<GstElement>],
                        bitsPerSecond: Int?) -> Double? {
        var buffering: Double?
        var fullestAny: Double?
        for queue in queues {
            let (time, bytes) = fullestPad(of: queue)
            var level = Double(time) / 1e9
            if time == 0, bytes > 0, let bitsPerSecond, bitsPerSecond > 0 { level = Double(bytes) * 8 / Double(bitsPerSecond) }
            if CGStreamer_get_boolean(UnsafeMutableRawPointer(queue), "use-buffering") != 0 {
                buffering = (buffering ?? 0) + level
            } else {
                fullestAny = max(fullestAny ?? 0, level)
            }
        }
        guard var total = buffering ?? fullestAny else { return nil }
        if let bitsPerSecond, bitsPerSecond > 0 {
            let bytes = downloaded.reduce(0) { $0 + Int(CGStreamer_get_uint(UnsafeMutableRawPointer($1), "current-level-bytes")) }
            total += Double(bytes) * 8 / Double(bitsPerSecond)
        }
        return total
    }

    /// The highest `current-level-time` (ns) and `current-level-bytes` over the queue's sink pads.
    private static func fullestPad(of queue: UnsafeMutablePointer<GstElement>) -> (time: UInt64, bytes: UInt64) {
        var fullest: (time: UInt64, bytes: UInt64) = (0, 0)
        _ = gst_element_foreach_sink_pad(queue, { _, pad, data in
            guard let pad, let data else { return 1 }
            let object = UnsafeMutableRawPointer(pad)
            let fullest = data.assumingMemoryBound(to: (time: UInt64, bytes: UInt64).self)
            fullest.pointee.time = max(fullest.pointee.time, UInt64(CGStreamer_get_uint64(object, "current-level-time")))
            fullest.pointee.bytes = max(fullest.pointee.bytes, UInt64(CGStreamer_get_uint(object, "current-level-bytes")))
            return 1
        }, &fullest)
        return fullest
    }
}
