import BackendCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An encoded still image (a snapshot or a thumbnail), encoded by GStreamer (`pngenc` /
/// `jpegenc`), with the pixel aspect ratio already applied: its pixels are square, so
/// `width × height` is the display size (possibly scaled down to a maximum size).
///
/// A plain value: safe to pass between threads.
public struct Image: Sendable, Hashable {
    /// The encoding of ``bytes``.
    public var format: ImageFormat
    /// Width in (square) pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The encoded file contents (a complete PNG or JPEG file).
    public var bytes: Data

    /// Creates an image value from encoded bytes and their dimensions.
    public init(format: ImageFormat, width: Int, height: Int, bytes: Data) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// The image encodings the Backend produces.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Lossless PNG (`pngenc`, caps `image/png`).
    case png
    /// JPEG (`jpegenc`, caps `image/jpeg`).
    case jpeg

    /// The usual file name extension, without the dot.
    public var fileExtension: String { self == .png ? "png" : "jpg" }

    /// The GStreamer media type of the encoded data.
    var mediaType: String { self == .png ? "image/png" : "image/jpeg" }
}

/// A bounding box for images: the result is scaled down (never up), keeping the display
/// aspect ratio, until it fits. A `nil` side is unconstrained, like a zero side of
/// `AVAssetImageGenerator.maximumSize`.
public struct ImageSize: Sendable, Hashable, Codable {
    /// The largest width allowed, or nil for any.
    public var width: Int?
    /// The largest height allowed, or nil for any.
    public var height: Int?

    /// Creates a bound; non-positive sides count as unconstrained.
    public init(width: Int? = nil, height: Int? = nil) {
        self.width = width.flatMap { $0 > 0 ? $0 : nil }
        self.height = height.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The output size for a frame of `codedWidth × codedHeight` with pixel aspect ratio
    /// `parNumerator/parDenominator`: the display size (width × PAR), then scaled down
    /// uniformly to fit `maximum` (if any). Both sides are at least 1. Pure; any thread.
    public static func fitting(codedWidth: Int, codedHeight: Int, parNumerator: Int, parDenominator: Int,
                               in maximum: ImageSize?) -> (width: Int, height: Int) {
        let n = parNumerator > 0 ? parNumerator : 1
        let d = parDenominator > 0 ? parDenominator : 1
        let displayWidth = Double(max(codedWidth, 1)) * Double(n) / Double(d)
        let displayHeight = Double(max(codedHeight, 1))
        var scale = 1.0
        if let w = maximum?.width { scale = min(scale, Double(w) / displayWidth) }
        if let h = maximum?.height { scale = min(scale, Double(h) / displayHeight) }
        return (max(1, Int((displayWidth * scale).rounded())), max(1, Int((displayHeight * scale).rounded())))
    }
}
