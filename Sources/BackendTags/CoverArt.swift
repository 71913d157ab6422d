import BackendCore
import CGStreamer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A picture the media carries (its `image` or `preview-image` tag: an ID3 APIC frame, a
/// FLAC/Vorbis picture, a Matroska attachment): the encoded bytes as they are in the file and
/// their MIME type, for an app to show or save (MPRIS `mpris:artUrl`, `gstplay cover`).
/// A plain value; any thread. Encoded to JSON without its bytes (MIME type, kind, byte count).
public struct CoverArt: Sendable, Hashable, Encodable {
    /// The picture file's bytes (PNG, JPEG… as embedded).
    public var bytes: Data
    /// Its MIME type, from the sample's caps: `image/png`, `image/jpeg`…
    public var mimeType: String
    /// What it shows, from the tag's `image-type` (`front-cover`, `back-cover`…; nil when untold).
    public var imageType: String?
    /// Width in pixels once known (decoded), else nil.
    public var width: Int?
    /// Height in pixels once known (decoded), else nil.
    public var height: Int?

    /// Creates the value.
    public init(bytes: Data, mimeType: String, imageType: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.imageType = imageType
        self.width = width
        self.height = height
    }

    /// The picture of a tag's `GstSample`: its buffer's bytes (`gst_buffer_extract`), the caps'
    /// media type and the info's `image-type` (`GstTagImageType` nick, or its number as text).
    init?(sample: OpaquePointer) {
        guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample),
              let structure = gst_caps_get_structure(caps, 0) else { return nil }
        let size = Int(gst_buffer_get_size(buffer))
        guard size > 0 else { return nil }
        var data = Data(count: size)
        let copied = data.withUnsafeMutableBytes { Int(gst_buffer_extract(buffer, 0, $0.baseAddress, gsize(size))) }
        guard copied == size else { return nil }
        bytes = data
        mimeType = String(cString: gst_structure_get_name(structure))
        if let info = gst_sample_get_info(sample) {
            var kind: gint = 0
            if gst_structure_get_enum(info, "image-type", gst_tag_image_type_get_type(), &kind) != 0 || gst_structure_get_int(info, "image-type", &kind) != 0 {
                imageType = Self.imageTypeName(kind)
            }
        }
    }

    /// The `GstTagImageType` nick of `value` (`g_enum_get_value`), e.g. `front-cover`.
    static func imageTypeName(_ value: gint) -> String? {
        guard let enumClass = g_type_class_ref(gst_tag_image_type_get_type()) else { return nil }
        defer { g_type_class_unref(enumClass) }
        guard let entry = g_enum_get_value(enumClass.assumingMemoryBound(to: GEnumClass.self), value) else { return String(value) }
        return String(cString: entry.pointee.value_nick)
    }

    /// How ``encoded(as:)`` writes the picture.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// PNG (`pngenc`).
        case png
        /// JPEG (`jpegenc`).
        case jpeg

        /// The MIME type, also the caps' media type.
        public var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    /// The picture as a PNG or JPEG file of its own size: the bytes as they are when already in
    /// that encoding, else decoded (`CoverArtDecoder`) and encoded again
    /// (`gst_video_convert_sample`). **Thread:** any but a player's loop thread (it blocks for
    /// the decoding, a few milliseconds for a small picture).
    public func encoded(as encoding: Encoding) throws(CoverArtError) -> CoverArt {
        let raw = try CoverArtDecoder.decode(self)
        defer { gst_sample_unref(raw.sample) }
        if mimeType == encoding.mimeType {
            return CoverArt(bytes: bytes, mimeType: mimeType, imageType: imageType, width: raw.width, height: raw.height)
        }
        let caps = gst_caps_from_string(encoding.mimeType)
        defer { gst_caps_unref(caps) }
        var error: UnsafeMutablePointer<GError>?
        guard let converted = gst_video_convert_sample(raw.sample, caps, 5 * CGStreamer_SECOND(), &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "no picture"
            if error != nil { g_error_free(error) }
            throw CoverArtError(message: "could not encode the picture as \(encoding.rawValue): \(text)")
        }
        defer { gst_sample_unref(converted) }
        guard var art = CoverArt(sample: converted) else { throw CoverArtError(message: "the \(encoding.rawValue) encoder produced no data") }
        art.mimeType = encoding.mimeType
        art.imageType = imageType
        art.width = raw.width
        art.height = raw.height
        return art
    }

    private enum CodingKeys: String, CodingKey { case mimeType, imageType, byteCount, width, height }

    /// Encodes the MIME type, kind, size and byte count, never the bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(imageType, forKey: .imageType)
        try container.encode(bytes.count, forKey: .byteCount)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
    }
}

/// A picture that could not be read, decoded or encoded; ``message`` says why.
public struct CoverArtError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line for the user.
    public var message: String
    /// Creates the error.
    public init(message: String) { self.message = message }
    /// ``message``.
    public var description: String { message }
}
