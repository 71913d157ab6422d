import BackendCore

/// The rule that keeps a request's thumbnails distinct: a key-unit seek is fast but
/// lands on the nearest key frame, so where key frames are sparser than the requested times two
/// times share one frame (16 tiles over the 10 key frames of a 10 s clip repeated 6). A key frame
/// is kept only when no earlier thumbnail of the request shows it and it stays between its
/// neighbours (after the previous thumbnail's frame, before the next requested time), so the
/// images keep the order of the times; otherwise that one time is sought accurately. Pure; any thread.
struct DistinctFrames {
    /// Frame times (nanoseconds) already shown by this request.
    private var shown: Set<Int64> = []
    /// The frame time of the previous thumbnail, with the time it was requested at.
    private var previous: (requested: MediaTime, actual: MediaTime)?

    /// True when the key frame at `key`, found for `requested`, may be used; `next` is the
    /// following requested time, if any.
    func accepts(key: MediaTime, requested: MediaTime, next: MediaTime?) -> Bool {
        guard !shown.contains(key.nanoseconds) else { return false }
        if let previous, previous.requested < requested, key <= previous.actual { return false }
        if let next, next > requested, key >= next { return false }
        return true
    }

    /// Records the frame shown for `requested`.
    mutating func record(_ actual: MediaTime, requested: MediaTime) {
        shown.insert(actual.nanoseconds)
        previous = (requested, actual)
    }
}
