/// A small picture of one frame as raw `BGRA` pixels (square pixels, `width × 4` bytes a row),
/// ready to draw over video: what the thumbnail track makes and the seek preview draws. A plain
/// value; any thread.
public struct BGRAPicture: Sendable, Hashable {
    /// The stream time of the frame shown.
    public var time: MediaTime
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `BGRA` bytes, `width × height × 4`.
    public var pixels: [UInt8]

    /// A picture value.
    public init(time: MediaTime, width: Int, height: Int, pixels: [UInt8]) {
        self.time = time
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
