import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writing cover art to a file: the console's `cover [path]` (and the CLI's `gstplay cover`).
/// Naming, encoding (`CoverArt/encoded(as:)`) and one atomic write (``ImageFileWriter``).
/// **Thread:** any but a player's loop thread (encoding may decode the picture).
public enum CoverFile {
    /// JPEG for a `.jpg`/`.jpeg` name, PNG otherwise.
    public static func encoding(for path: String) -> CoverArt.Encoding {
        let lower = path.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
    }

    /// Where the console's `cover [path]` writes: `gstplay-<name>-cover.png` in the current
    /// directory, or in `argument` when it names an existing directory; any other `argument` is
    /// the file itself.
    public static func target(argument: String?, location: String) -> String {
        let name = "gstplay-\(ImageFileWriter.baseName(of: location))-cover.png"
        guard let argument, !argument.isEmpty else { return name }
        return PathText.isDirectory(argument) ? PathText.appending(name, to: argument) : argument
    }

    /// Encodes `art` for `path`'s extension and writes it (temporary file + rename). Throws
    /// `CoverArtError` or ``ImageFileWriter/Failure``.
    public static func write(_ art: CoverArt, to path: String) throws -> SnapshotFile.Written {
        let encoded = try art.encoded(as: encoding(for: path))
        try ImageFileWriter.write(encoded.bytes, to: path)
        return SnapshotFile.Written(path: path, width: encoded.width ?? 0, height: encoded.height ?? 0)
    }
}
