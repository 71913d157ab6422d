import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--screenshot-template` and `--screenshot-directory` (mpv's options): how the `S` key and a
/// `snapshot` without a path name the file. A plain value; any thread.
public struct ScreenshotNaming: Equatable, Sendable {
    /// The file name with mpv's fields (``expand(location:position:number:)``); nil: gstplay's
    /// `gstplay-<name>-<HH-MM-SS.mmm>`.
    public var template: String?
    /// Where the files go (made when missing); nil: the current directory. An absolute template ignores it.
    public var directory: String?

    /// A naming with `template` (nil: gstplay's) in `directory` (nil: the current one).
    public init(template: String? = nil, directory: String? = nil) {
        self.template = template
        self.directory = directory
    }

    /// True when the template numbers its files (`%n`).
    public var isNumbered: Bool { template?.contains("%n") ?? false }

    /// The template with its fields filled in: `%f` the file name, `%F` without its extension,
    /// `%n` the number padded to 4 digits, `%p` the position as `HH:MM:SS`, `%P` as
    /// `HH:MM:SS.mmm`, `%%` a percent sign; another `%x` stays as typed. `.png` is added unless
    /// the name ends in `.png`, `.jpg` or `.jpeg`.
    public func expand(location: String, position: MediaTime, number: Int) -> String {
        let name = ImageFileWriter.fileName(of: location)
        let stamp = String(ImageFileWriter.timestamp(position).map { $0 == "-" ? ":" : $0 })
        var result = ""
        var characters = (template ?? "").makeIterator()
        while let character = characters.next() {
            guard character == "%" else { result.append(character); continue }
            switch characters.next() {
            case "f"?: result += name
            case "F"?: result += PathText.deletingExtension(name)
            case "n"?: result += String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
            case "p"?: result += String(stamp.prefix(8))
            case "P"?: result += stamp
            case "%"?: result += "%"
            case let other?: result += "%" + String(other)
            case nil: result += "%"
            }
        }
        let lower = result.lowercased()
        return [".png", ".jpg", ".jpeg"].contains(where: lower.hasSuffix) ? result : result + ".png"
    }

    /// The path for the next screenshot: the template's name in the directory, with the lowest
    /// `%n` (from 1) whose file does not exist yet (as mpv); the directory is made when missing
    /// (`makesDirectory`). Throws when it cannot be made.
    public func nextPath(location: String, position: MediaTime, makesDirectory: Bool = true) throws -> String {
        try nextPath(location: location, position: position, makesDirectory: makesDirectory, exists: { PathText.exists($0) })
    }

    /// ``nextPath(location:position:makesDirectory:)`` with `exists` deciding which files exist.
    func nextPath(location: String, position: MediaTime, makesDirectory: Bool = true,
                  exists: (String) -> Bool) throws -> String {
        var number = 1
        while true {
            let name = template == nil ? SnapshotFile.defaultName(location: location, position: position)
                                       : expand(location: location, position: position, number: number)
            let path = name.hasPrefix("/") || directory == nil ? name : PathText.appending(name, to: directory!)
            if !isNumbered || !exists(path) || number >= 99_999 {
                if makesDirectory, let directory, !name.hasPrefix("/"), !PathText.isDirectory(directory) {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                return path
            }
            number += 1
        }
    }
}
