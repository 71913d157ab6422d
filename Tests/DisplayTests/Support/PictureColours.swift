import Foundation
import XCTest

/// Colours of a picture file read through ImageMagick `convert` (installed by `make test`):
/// the mean colour of a region, the spread of the grey levels, a hash of the pixels.
enum PictureColours {
    /// An 8-bit RGB colour.
    struct RGB: Equatable, CustomStringConvertible {
        var r: Int, g: Int, b: Int
        var description: String { "rgb(\(r),\(g),\(b))" }
        /// Within `tolerance` of `other` on every channel.
        func isClose(to other: RGB, tolerance: Int) -> Bool {
            abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
        }
    }

    /// The mean colour of the region `fx`…`fx + fw` × `fy`…`fy + fh` given as fractions of the
    /// picture's width and height (`-crop` by percent would round; this asks for the size first).
    static func meanColour(of path: String, x fx: Double, y fy: Double, width fw: Double, height fh: Double) throws -> RGB {
        let size = try convert([path, "-format", "%w %h", "info:"]).split(separator: " ").compactMap { Int($0) }
        guard size.count == 2 else { throw XvfbError("cannot read the size of \(path)") }
        let region = "\(max(1, Int(Double(size[0]) * fw)))x\(max(1, Int(Double(size[1]) * fh)))+\(Int(Double(size[0]) * fx))+\(Int(Double(size[1]) * fy))"
        let text = try convert([path, "-crop", region, "+repage", "-resize", "1x1!", "-depth", "8", "-format", "%[fx:int(255*r)] %[fx:int(255*g)] %[fx:int(255*b)]", "info:"])
        let parts = text.split(separator: " ").compactMap { Int($0) }
        guard parts.count == 3 else { throw XvfbError("cannot read the colour of \(path): \(text)") }
        return RGB(r: parts[0], g: parts[1], b: parts[2])
    }

    /// The standard deviation of the picture's grey levels (0: uniform).
    static func spread(of path: String) throws -> Double {
        let text = try convert([path, "-colorspace", "Gray", "-format", "%[fx:standard_deviation]", "info:"])
        guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw XvfbError("cannot read \(path): \(text)") }
        return value
    }

    /// ImageMagick's signature of the pixels (equal pictures, equal signatures).
    static func signature(of path: String) throws -> String {
        try convert([path, "-format", "%#", "info:"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func convert(_ arguments: [String]) throws -> String {
        try X11Tools.run("convert", arguments, environment: ProcessInfo.processInfo.environment).output
    }
}
