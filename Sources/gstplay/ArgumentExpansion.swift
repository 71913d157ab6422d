import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turning command-line arguments into playlist entries.
enum ArgumentExpansion {
    /// Expands one argument: a directory becomes its regular files (not hidden), sorted by
    /// name; anything else (files, URIs) is returned as typed.
    static func expand(_ argument: String) -> [String] {
        guard !MediaLocation.looksLikeURI(argument),
              PathText.isDirectory(argument),
              let names = try? FileManager.default.contentsOfDirectory(atPath: argument)
        else { return [argument] }
        let base = URL(fileURLWithPath: argument)
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = base.appendingPathComponent(name).path
            return PathText.exists(path) && !PathText.isDirectory(path) ? path : nil
        }
    }
}
