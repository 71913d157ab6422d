import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// The media's tags and picture as MPRIS shows them (`xesam:title`, `xesam:artist`,
/// `xesam:album`, `mpris:artUrl`). An app gives one to ``MPRISFeature``: the umbrella `Backend`
/// adapts BackendTags' section of the snapshot (a feature target imports no other feature target).
///
/// **Thread:** called on the player's loop thread, from the MPRIS feature's own work.
public protocol MPRISTagSource: Sendable {
    /// The current media's tags as `snapshot` has them, nil when none are known.
    func tags(in snapshot: PlayerSnapshot) -> MPRISMediaTags?
}

/// Tags and picture for MPRIS (``MPRISTagSource/tags(in:)``).
public struct MPRISMediaTags: Sendable, Hashable {
    /// The title tag.
    public var title: String?
    /// The artist tag.
    public var artist: String?
    /// The album tag.
    public var album: String?
    /// The embedded picture's bytes (PNG, JPEG… as in the file), nil for none.
    public var coverArt: [UInt8]?
    /// The picture's MIME type (`image/png`, `image/jpeg`…).
    public var coverArtMIMEType: String?

    /// Creates the value.
    public init(title: String? = nil, artist: String? = nil, album: String? = nil, coverArt: [UInt8]? = nil, coverArtMIMEType: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.coverArt = coverArt
        self.coverArtMIMEType = coverArtMIMEType
    }
}

/// The picture behind `mpris:artUrl`: written once per distinct picture into the directory the
/// app named (``MPRISConfiguration/artDirectory``) as `<instance>-<sha1>.<ext>`
/// (`g_compute_checksum_for_data`, `g_file_set_contents_full`), the previous one removed; the
/// last one is removed at teardown. **Thread:** the loop thread (the feature's).
final class MPRISArtFile {
    private let directory: String
    private let prefix: String
    private var written: (bytes: [UInt8], path: String)?

    init(directory: String, prefix: String) {
        self.directory = directory
        self.prefix = prefix
    }

    /// The `file://` URL of `bytes` written to disk (written now when new), nil for no picture
    /// or when it cannot be written.
    func url(for bytes: [UInt8]?, mimeType: String?) -> String? {
        guard let bytes, !bytes.isEmpty else { remove(); return nil }
        if let written, written.bytes == bytes { return FileURI.uri(forPath: written.path) }
        remove()
        guard let checksum = bytes.withUnsafeBufferPointer({ String(takingGLibString: g_compute_checksum_for_data(G_CHECKSUM_SHA1, $0.baseAddress, gsize($0.count))) }) else {
            return nil
        }
        let path = "\(directory)/\(prefix)-\(checksum).\(Self.fileExtension(mimeType))"
        do {
            try AtomicFile.makeDirectories(directory)
            try AtomicFile.write(bytes, to: path)
        } catch {
            return nil
        }
        written = (bytes, path)
        return FileURI.uri(forPath: path)
    }

    /// Removes the file written last, if any.
    func remove() {
        guard let path = written?.path else { return }
        written = nil
        unlink(path)
    }

    private static func fileExtension(_ mimeType: String?) -> String {
        switch mimeType {
        case "image/png": "png"
        case "image/jpeg", "image/jpg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/bmp": "bmp"
        default: "img"
        }
    }
}
