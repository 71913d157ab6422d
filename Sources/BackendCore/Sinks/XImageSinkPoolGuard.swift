import CGStreamer

/// Keeps `ximagesink`'s buffer pools inside the sink, so that no upstream thread ever allocates
/// from them.
///
/// Why: `ximagesink` answers the `ALLOCATION` query with a pool of its own whose allocator reads
/// the sink's X context (`ximage_memory_alloc`: `xcontext->use_xshm`, no NULL check). The sink
/// clears that context in READY→NULL. playsink takes its video chain (with the sink) to NULL at
/// the end of its own PAUSED→READY, and playbin changes playsink before the source group, whose
/// decoder still runs then: a decoder that grows its pool in that window — right after a caps
/// change, say, when the new pool fills up to the decoder's reference frames — reads the freed
/// context and dies ("bad pointer dereference at 0x58" on `multiqueue0:src`, the offset of
/// `use_xshm`). Any PAUSED→READY of playbin (stop, the next load, shutdown) opens that window.
///
/// How: a query probe on the sink's `sink` pad takes the pools out of its `ALLOCATION` answer
/// (upstream then allocates system memory; the sink copies each frame into its own pool on its
/// own streaming thread, which stops before the sink leaves READY) and the crop meta too (the
/// copy maps the frame by its video meta and would ignore a crop offset: videocrop then crops by
/// copying). Other sinks are left alone: `xvimagesink` and `glimagesink` keep their contexts
/// alive from their allocators.
enum XImageSinkPoolGuard {
    /// The factory whose pools are kept inside.
    static let factory = "ximagesink"

    /// Installs the probe on `sink` when it is an `ximagesink`, or on each `ximagesink` inside it
    /// when it is a bin (`gst_bin_iterate_recurse`). Returns how many got it. Loop thread, before
    /// the sink's pads are active.
    @discardableResult
    static func install(on sink: UnsafeMutablePointer<GstElement>) -> Int {
        let sinks = ximageSinks(in: sink)
        for element in sinks {
            defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
            guard let pad = gst_element_get_static_pad(element, "sink") else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, { _, info, _ in
                // The probe runs twice per query: before the sink answers (PUSH) and after (PULL).
                guard let info, info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_PULL.rawValue != 0,
                      let data = info.pointee.data else { return GST_PAD_PROBE_OK }
                let query = data.assumingMemoryBound(to: GstQuery.self)
                if query.pointee.type == GST_QUERY_ALLOCATION { XImageSinkPoolGuard.keepPoolsInside(query) }
                return GST_PAD_PROBE_OK
            }, nil, nil)
        }
        return sinks.count
    }

    /// Removes every pool and the crop meta from an answered `ALLOCATION` query (any thread).
    static func keepPoolsInside(_ query: UnsafeMutablePointer<GstQuery>) {
        guard gst_mini_object_is_writable(UnsafeRawPointer(query).assumingMemoryBound(to: GstMiniObject.self)) != 0 else { return }
        while gst_query_get_n_allocation_pools(query) > 0 { gst_query_remove_nth_allocation_pool(query, 0) }
        var index: guint = 0
        if gst_query_find_allocation_meta(query, gst_video_crop_meta_api_get_type(), &index) != 0 {
            gst_query_remove_nth_allocation_meta(query, index)
        }
    }

    /// `sink` and the elements inside it (recursively) made by ``factory``; new references.
    static func ximageSinks(in sink: UnsafeMutablePointer<GstElement>) -> [UnsafeMutablePointer<GstElement>] {
        let object = UnsafeMutableRawPointer(sink)
        if isXImageSink(sink) {
            _ = gst_object_ref(object)
            return [sink]
        }
        guard CGStreamer_is_bin(object) != 0, let iterator = gst_bin_iterate_recurse(CGStreamer_as_bin(object)) else { return [] }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        var found: [UnsafeMutablePointer<GstElement>] = []
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let child = g_value_get_object(&value), isXImageSink(CGStreamer_as_element(child)) {
                _ = gst_object_ref(child)
                found.append(CGStreamer_as_element(child))
            }
            g_value_reset(&value)
        }
        g_value_unset(&value)
        return found
    }

    private static func isXImageSink(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let made = gst_element_get_factory(element) else { return false }
        return String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(made)))) == factory
    }
}
