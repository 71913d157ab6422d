import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writing cover art to a file: `gstplay cover` and the console's `cover [path]`.
/// Naming, encoding (``CoverArt/encoded(as:)``) and one atomic write (``ImageFileWriter``).
/// **Thread:** any but a player's loop thread (encoding may decode the picture).
enum CoverFile {
    /// JPEG for a `.jpg`/`.jpeg` name, PNG otherwise.
    static func encoding(for path: String) -> CoverArt.Encoding {
        let lower = path.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
    }

    /// Where the console's `cover [path]` writes: `gstplay-<name>-cover.png` in the current
    /// directory, or in `argument` when it names an existing directory; any other `argument` is
    /// the file itself.
    static func target(argument: String?, location: String) -> String {
        let name = "gstplay-\(ImageFileWriter.baseName(of: location))-cover.png"
        guard let argument, !argument.isEmpty else { return name }
        return PathText.isDirectory(argument) ? PathText.appending(name, to: argument) : argument
    }

    /// Encodes `art` for `path`'s extension and writes it (temporary file + rename). Throws
    /// ``CoverArtError`` or ``ImageFileWriter/Failure``.
    static func write(_ art: CoverArt, to path: String) throws -> SnapshotFile.Written {
        let encoded = try art.encoded(as: encoding(for: path))
        try ImageFileWriter.write(encoded.bytes, to: path)
        return SnapshotFile.Written(path: path, width: encoded.width ?? 0, height: encoded.height ?? 0)
    }

    /// `gstplay cover`: reads `location`'s picture and writes it to `path`; one line on stdout
    /// (`<path> (WxH)`) or one error line on stderr. Returns the exit status (see ``CoverCommand``).
    static func run(location: String, path: String, output: Output) -> Int32 {
        let art: CoverArt?
        do {
            art = try CoverArtReader.read(from: location)
        } catch {
            output.err("gstplay: error: \(location): \(error.message)")
            return ExitStatus.playbackError
        }
        guard let art else {
            output.err("gstplay: error: \(location): the media has no cover art")
            return ExitStatus.noCoverArt
        }
        do {
            let written = try write(art, to: path)
            output.out("\(written.path) (\(written.width)x\(written.height))")
            return ExitStatus.success
        } catch {
            output.err("gstplay: error: \(path): \(error)")
            return ExitStatus.playbackError
        }
    }
}
