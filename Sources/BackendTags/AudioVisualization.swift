import BackendCore
import CGStreamer

/// What audio-only media shows in a window (``TagsFeature/init(visualization:)``,
/// `StandardFeatures.visualization`, gstplay's `--visualization`). Only with a video sink that
/// has a window (`GstVideoOverlay`); never with fake sinks.
public enum AudioVisualization: Sendable, Hashable {
    /// Nothing: playbin without its `vis` flag (no window for audio-only media).
    case none
    /// The media's cover art scaled into the window, else the first installed visualiser of
    /// ``AudioVisualization/preferredVisualizers``.
    case auto
    /// This GStreamer visualiser element (`goom`, `wavescope`, `synaescope`…), also when the
    /// media has cover art.
    case visualizer(String)

    /// The visualisers `.auto` tries, in order (gst-plugins-good's `goom`, `goom2k1`,
    /// `monoscope`; gst-plugins-bad's audiovisualizers).
    public static let preferredVisualizers = ["goom", "goom2k1", "synaescope", "wavescope", "spectrascope", "monoscope"]

    /// Whether `name` is an installed element of the `Visualization` class
    /// (`gst_element_factory_find`, `GST_ELEMENT_METADATA_KLASS`). **Thread:** any.
    public static func isInstalled(_ name: String) -> Bool {
        GStreamerRuntime.ensureInitialized()
        guard let factory = gst_element_factory_find(name) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        guard let klass = gst_element_factory_get_metadata(factory, "klass") else { return false }
        return String(cString: klass).contains("Visualization")
    }

    /// The installed visualisers of ``preferredVisualizers``, in that order. **Thread:** any.
    public static func installedVisualizers() -> [String] { preferredVisualizers.filter(isInstalled) }

    /// Parses `none`, `auto` or a visualiser's element name (checked later, when the feature
    /// makes it); nil for an empty text.
    public init?(argument: String) {
        switch argument {
        case "": return nil
        case "none": self = .none
        case "auto": self = .auto
        default: self = .visualizer(argument)
        }
    }
}
