import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where `snapshot [path]` (console, JSON, the `S` key) writes, and the writing itself.
/// Pure naming plus one atomic write; any thread.
extension SnapshotFile {
    /// What a written snapshot reports back (the reply's fields).
    public typealias Written = WireSnapshot

    /// gstplay's own name, `gstplay-<name>-<HH-MM-SS.mmm>.png` (mpv's time format).
    public static func defaultName(location: String, position: MediaTime) -> String {
        "gstplay-\(ImageFileWriter.baseName(of: location))-\(ImageFileWriter.timestamp(position)).png"
    }

    /// Without `argument`: the name `naming` makes (``ScreenshotNaming``; by default
    /// `gstplay-<name>-<HH-MM-SS.mmm>.png` in the current directory, mpv's convention); when
    /// `argument` names an existing directory, that name in it; any other `argument` is the file
    /// itself. JPEG when the name ends in `.jpg`/`.jpeg`, PNG otherwise. Throws when the
    /// screenshot directory cannot be made.
    public static func target(argument: String?, location: String, position: MediaTime, naming: ScreenshotNaming = ScreenshotNaming(),
                       isDirectory: (String) -> Bool = defaultIsDirectory) throws -> (path: String, format: ImageFormat) {
        let path: String
        if let argument, !argument.isEmpty, !isDirectory(argument) {
            path = argument
        } else if let argument, !argument.isEmpty {
            path = try ScreenshotNaming(template: naming.template, directory: argument).nextPath(location: location, position: position,
                                                                                                       makesDirectory: false)
        } else {
            path = try naming.nextPath(location: location, position: position)
        }
        let lower = path.lowercased()
        return (path, lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png)
    }

    /// True for an existing directory.
    public static func defaultIsDirectory(_ path: String) -> Bool {
        PathText.isDirectory(path)
    }

    /// Takes the player's current frame (`Player/snapshot(format:maxSize:)`, awaited: no thread
    /// waits for the loop thread) and writes it (temporary file + rename). Throws `ImageError`
    /// or ``ImageFileWriter/Failure``.
    public static func take(from player: Player, argument: String?, location: String, osd: Bool = false,
                     naming: ScreenshotNaming = ScreenshotNaming()) async throws -> Written {
        let position = await player.currentPosition() ?? player.position ?? .zero
        let target = try target(argument: argument, location: location, position: position, naming: naming)
        let image = try await player.snapshot(format: target.format, includingOverlays: osd)
        try ImageFileWriter.write(image.bytes, to: target.path)
        return Written(path: target.path, width: image.width, height: image.height)
    }
}
