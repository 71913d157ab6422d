/// What a written image file reports back, the `snapshot` and `cover` replies' data:
/// `{"path": "…", "width": 640, "height": 360}`. A plain value; any thread.
public struct WireSnapshot: Codable, Equatable, Sendable {
    /// The file written.
    public var path: String
    /// The image's width in pixels.
    public var width: Int
    /// The image's height in pixels.
    public var height: Int

    /// A report of the image written at `path`.
    public init(path: String, width: Int, height: Int) {
        self.path = path
        self.width = width
        self.height = height
    }
}
