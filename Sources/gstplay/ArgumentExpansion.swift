import Backend
import Foundation

/// Turning command-line arguments into playlist entries.
enum ArgumentExpansion {
    /// Expands one argument: a directory becomes its regular files (not hidden), sorted by
    /// name; anything else (files, URIs) is returned as typed.
    static func expand(_ argument: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard !MediaLocation.looksLikeURI(argument),
              FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory),
              isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: argument)
        else { return [argument] }
        let base = URL(fileURLWithPath: argument)
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = base.appendingPathComponent(name).path
            var dir: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && !dir.boolValue ? path : nil
        }
    }
}
