import CGStreamer

/// The video filter slot features share (``FeatureVideo/addFilter(_:order:)``): playbin has one
/// `video-filter`, placed by playsink between the decoded video and its subtitle overlay and
/// sink. Several features want an element there (the window's crop, an on-screen display), so
/// the core chains them in one bin once every feature attached.
extension Engine {
    /// Chains playbin's current `video-filter` (a feature may have set one directly), the
    /// elements features added (in their orders), then (after an `identity` whose frames ``FramesUnderOverlays``
    /// keeps for snapshots) the overlays features added, in that order, into one bin (`gst_bin_new`, `gst_element_link`,
    /// ghost pads `sink`/`src`) set as `video-filter`; a single element is set as it is. Loop
    /// thread, after ``attachFeatures()`` and before ``connectMediaSizeSignal()`` (which reads the
    /// chain's `sink` pad: the stream's own size).
    func installVideoFilters() {
        let taken = context.extensions.takeVideoChain()
        var added = taken.filters
        let overlays = taken.overlays
        guard !added.isEmpty || !overlays.isEmpty, sinks.video != nil, let playbin = pipeline?.object else { return }
        if !overlays.isEmpty, let identity = gst_element_factory_make("identity", "gstplay-before-overlays") {
            let frames = FramesUnderOverlays()
            frames.watch(identity)
            context.framesUnderOverlays = frames
            added.append(identity) // floating: the bin below sinks it
        }
        added += overlays
        var chain: [UnsafeMutablePointer<GstElement>] = []
        let existing = CGStreamer_get_object(playbin, "video-filter")?.assumingMemoryBound(to: GstElement.self)
        if let existing { chain.append(existing) } // our reference, dropped below
        defer { if let existing { gst_object_unref(UnsafeMutableRawPointer(existing)) } }
        chain += added
        guard chain.count > 1 else { return CGStreamer_set_object(playbin, "video-filter", UnsafeMutableRawPointer(chain[0])) }
        guard let bin = gst_bin_new("gstplay-video-filters") else { return }
        for element in chain { _ = gst_bin_add(CGStreamer_as_bin(UnsafeMutableRawPointer(bin)), element) }
        for (upstream, downstream) in zip(chain, chain.dropFirst()) where gst_element_link(upstream, downstream) == 0 {
            publish(.warning(PlayerError(kind: .missingPlugin, element: "video-filter",
                                         message: "cannot link the video filters \(Self.name(of: upstream)) and \(Self.name(of: downstream))")))
        }
        for (element, name) in [(chain[0], "sink"), (chain[chain.count - 1], "src")] {
            guard let pad = gst_element_get_static_pad(element, name) else { continue }
            _ = gst_element_add_pad(bin, gst_ghost_pad_new(name, pad))
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        CGStreamer_set_object(playbin, "video-filter", UnsafeMutableRawPointer(bin)) // playbin sinks the floating bin
    }

    private static func name(of element: UnsafeMutablePointer<GstElement>) -> String {
        String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(element)))) ?? "?"
    }
}
