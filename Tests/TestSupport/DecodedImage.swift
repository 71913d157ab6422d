import Backend
import BackendCore
import CGStreamer
import Foundation
import XCTest

/// An encoded image decoded back by GStreamer (`appsrc ! pngdec|jpegdec ! videoconvert !
/// video/x-raw,format=RGB ! fakesink`, read from the sink's `last-sample`) for pixel checks.
/// Shared by the Backend's and the CLI's tests (thumbnails, snapshots, the thumbnailer).
public struct DecodedImage: Sendable {
    /// Width and height in pixels.
    public let width: Int, height: Int
    /// Bytes per row (RGB rows rounded up to 4 bytes).
    public let rowBytes: Int
    /// The pixels, RGB, row after row.
    public let rgb: [UInt8]

    /// An RGB triple.
    public struct Pixel: Equatable, Sendable, CustomStringConvertible {
        /// Red, green, blue, 0…255.
        public var r: Int, g: Int, b: Int
        /// Creates a pixel.
        public init(r: Int, g: Int, b: Int) { self.r = r; self.g = g; self.b = b }
        /// `rgb(r,g,b)`.
        public var description: String { "rgb(\(r),\(g),\(b))" }
        /// Within `tolerance` of `other` on every channel (codecs do not keep colours exact).
        public func isClose(to other: Pixel, tolerance: Int = 40) -> Bool {
            abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
        }
        public static let red = Pixel(r: 255, g: 0, b: 0)
        public static let green = Pixel(r: 0, g: 255, b: 0)
        public static let blue = Pixel(r: 0, g: 0, b: 255)
        public static let white = Pixel(r: 255, g: 255, b: 255)
        public static let black = Pixel(r: 0, g: 0, b: 0)
    }

    /// The pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> Pixel {
        let offset = y * rowBytes + x * 3
        return Pixel(r: Int(rgb[offset]), g: Int(rgb[offset + 1]), b: Int(rgb[offset + 2]))
    }

    /// True when every pixel is (nearly) black.
    public var isBlack: Bool {
        for y in stride(from: 0, to: height, by: 4) {
            for x in stride(from: 0, to: width, by: 4) where !pixel(x: x, y: y).isClose(to: .black, tolerance: 16) { return false }
        }
        return true
    }

    /// The `width × height` region whose top left corner is at (`x`, `y`), as an image of its own.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> DecodedImage {
        let rowBytes = width * 3
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * height)
        for row in y..<(y + height) {
            let start = row * self.rowBytes + x * 3
            pixels.append(contentsOf: rgb[start..<(start + rowBytes)])
        }
        return DecodedImage(width: width, height: height, rowBytes: rowBytes, rgb: pixels)
    }

    /// How many pixels differ from `other`'s (same size) by more than `tolerance` on some channel.
    public func differingPixels(from other: DecodedImage, tolerance: Int = 24) -> Int {
        precondition(width == other.width && height == other.height, "images of different sizes")
        var count = 0
        for y in 0..<height {
            for x in 0..<width where !pixel(x: x, y: y).isClose(to: other.pixel(x: x, y: y), tolerance: tolerance) { count += 1 }
        }
        return count
    }

    /// The standard deviation of the pixels' brightness ((r + g + b) / 3, 0…255): 0 for a
    /// uniform picture.
    public var brightnessDeviation: Double {
        var sum = 0.0, squares = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x: x, y: y)
                let value = Double(p.r + p.g + p.b) / 3
                sum += value
                squares += value * value
            }
        }
        let count = Double(max(width * height, 1))
        let mean = sum / count
        return (max(0, squares / count - mean * mean)).squareRoot()
    }

    /// Decodes `bytes` (PNG or JPEG); fails the test and returns nil when GStreamer cannot.
    public static func decode(_ bytes: Data, format: ImageFormat = .png, file: StaticString = #filePath, line: UInt = #line) -> DecodedImage? {
        GStreamerRuntime.ensureInitialized()
        let decoder = format == .png ? "pngdec" : "jpegdec"
        let media = format == .png ? "image/png" : "image/jpeg"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(
            "appsrc name=src caps=\(media) ! \(decoder) ! videoconvert ! video/x-raw,format=RGB ! fakesink name=sink sync=false", &error) else {
            XCTFail("cannot build the decoding pipeline", file: file, line: line)
            return nil
        }
        defer { gst_element_set_state(pipeline, GST_STATE_NULL); gst_object_unref(UnsafeMutableRawPointer(pipeline)) }
        let bin = CGStreamer_as_bin(UnsafeMutableRawPointer(pipeline))
        let source = gst_bin_get_by_name(bin, "src")!, sink = gst_bin_get_by_name(bin, "sink")!
        defer { gst_object_unref(UnsafeMutableRawPointer(source)); gst_object_unref(UnsafeMutableRawPointer(sink)) }
        let buffer = bytes.withUnsafeBytes { gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }!
        _ = CGStreamer_appsrc_push_buffer(source, buffer)
        gst_buffer_unref(buffer)
        _ = CGStreamer_appsrc_end_of_stream(source)
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        var ended = false
        while !ended {
            let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
            guard let message = gst_bus_timed_pop_filtered(bus, 10 * CGStreamer_SECOND(), types) else {
                XCTFail("decoding timed out", file: file, line: line); return nil
            }
            defer { gst_message_unref(message) }
            guard CGStreamer_message_type(message) == GST_MESSAGE_EOS else {
                XCTFail("decoding failed: not a \(format.rawValue) image", file: file, line: line); return nil
            }
            ended = true
        }
        guard let raw = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample") else {
            XCTFail("no decoded frame", file: file, line: line)
            return nil
        }
        let sample = OpaquePointer(raw)
        defer { gst_sample_unref(sample) }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard let caps = gst_sample_get_caps(sample), CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0,
              let data = gst_sample_get_buffer(sample) else { return nil }
        let info = (width: Int(width), height: Int(height))
        let size = Int(gst_buffer_get_size(data))
        var rgb = [UInt8](repeating: 0, count: size)
        _ = rgb.withUnsafeMutableBytes { gst_buffer_extract(data, 0, $0.baseAddress, gsize(size)) }
        let rowBytes = (info.width * 3 + 3) / 4 * 4 // GStreamer rounds RGB rows up to 4 bytes
        XCTAssertGreaterThanOrEqual(size, rowBytes * info.height, file: file, line: line)
        return DecodedImage(width: info.width, height: info.height, rowBytes: rowBytes, rgb: rgb)
    }
}
