import BackendCore
import CGStreamer
import GLibSupport

extension AudioPicture {
    /// The visualiser to make: the named one, or the first installed of the preferred ones
    /// (`gst_element_factory_find`).
    var visualizerFactory: String? {
        switch mode {
        case .none: return nil
        case .visualizer(let name): return name
        case .auto:
            return AudioVisualization.preferredVisualizers.first { name in
                guard let factory = gst_element_factory_find(name) else { return false }
                gst_object_unref(UnsafeMutableRawPointer(factory))
                return true
            }
        }
    }

    /// `<visualiser> ! capsfilter ! videoconvert ! overlaycomposition` in a bin with ghost pads
    /// `sink` and `src` (what playbin's `vis-plugin` links), its `draw` handler connected with a
    /// retained box released in the destroy notify. Our own (sunk) reference, or nil when an
    /// element is missing.
    func makeBin() -> UnsafeMutablePointer<GstElement>? {
        guard let name = visualizerFactory, let visualizer = gst_element_factory_make(name, "gstplay-visualizer") else { return nil }
        let parts = [visualizer, gst_element_factory_make("capsfilter", "gstplay-picture-size"),
                     gst_element_factory_make("videoconvert", nil), gst_element_factory_make("overlaycomposition", "gstplay-picture")]
        let elements = parts.compactMap { $0 }
        guard elements.count == parts.count, let bin = gst_bin_new("gstplay-audio-picture") else {
            for element in elements { gst_object_unref(UnsafeMutableRawPointer(gst_object_ref_sink(UnsafeMutableRawPointer(element)))) }
            return nil
        }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(bin))
        let binPointer = CGStreamer_as_bin(UnsafeMutableRawPointer(bin))
        for element in elements { _ = gst_bin_add(binPointer, element) }
        for index in 0..<(elements.count - 1) { _ = gst_element_link(elements[index], elements[index + 1]) }
        if let caps = gst_caps_from_string(Self.frameCaps) {
            CGStreamer_set_object(UnsafeMutableRawPointer(elements[1]), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        addGhostPad(named: "sink", of: elements[0], to: bin)
        addGhostPad(named: "src", of: elements[3], to: bin)
        connectDraw(elements[3])
        return bin
    }

    private func addGhostPad(named name: String, of element: UnsafeMutablePointer<GstElement>, to bin: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(element, name) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        if let ghost = gst_ghost_pad_new(name, pad) { _ = gst_element_add_pad(bin, ghost) }
    }

    /// `draw` (streaming thread): the composition for the frame's size, or NULL to draw nothing.
    private func connectDraw(_ element: UnsafeMutablePointer<GstElement>) {
        let box = CallbackBox(pictureOverlay)
        _ = CGStreamer_signal_connect_2_returning(UnsafeMutableRawPointer(element), "draw", { _, sample, data in
            guard let data, let sample, let caps = gst_sample_get_caps(OpaquePointer(sample)) else { return nil }
            var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
            guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0 else { return nil }
            let overlay = CallbackBox<PictureOverlay>.from(data).value
            return overlay.composition(frameWidth: Int(width), frameHeight: Int(height)).map(UnsafeMutableRawPointer.init)
        }, box.retainedPointer, callbackBoxClosureRelease)
    }
}
