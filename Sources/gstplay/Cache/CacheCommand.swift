import ArgumentParser
import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// `gstplay cache list|clear|remove URL|path [--cache-dir DIR]`: what the media cache holds
/// (size, age, last use, URI), emptying it, forgetting one URI, and where it is. `list`, `clear`
/// and `remove` never create a missing directory. Routed by ``CommandRouting`` (exit 0, 1 when
/// the cache cannot be read or changed, 2 for usage errors).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the media cache of complete http(s) downloads.",
        usage: "gstplay cache list|clear|path [--cache-dir <dir>]\n       gstplay cache remove <uri> [--cache-dir <dir>]"
    )

    /// The actions.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case list, clear, remove, path
    }

    @Argument(help: ArgumentHelp("list: files with sizes and ages; clear: delete them all; remove: one URI; path: the directory."))
    var action: Action

    @Argument(help: ArgumentHelp("The URI to remove (remove only).", valueName: "uri"))
    var uri: String?

    /// `remove` needs a URI, the others take none (exit 2).
    func validate() throws {
        if action == .remove && uri == nil { throw ValidationError("cache remove needs the URI to remove") }
        if action != .remove, let uri { throw ValidationError("cache \(action.rawValue) takes no URI (got '\(uri)')") }
    }

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Media cache directory (default $XDG_CACHE_HOME/gstplay/media).", valueName: "dir"))
    var cacheDirectory: String?

    func run() throws {
        let cache = MediaCache(directory: cacheDirectory ?? NetworkSettings.defaultCacheDirectory())
        if action != .path, let notice = try Self.check({ try cache.repair() }) {
            Output.writeLine(STDERR_FILENO, "gstplay: warning: media cache: \(notice)")
        }
        switch action {
        case .path:
            Output.writeLine(STDOUT_FILENO, cache.directory)
        case .clear:
            let entries = try Self.check { try cache.entries() }
            try Self.check { try cache.clear() }
            Output.writeLine(STDOUT_FILENO, "Removed \(entries.count) file(s), \(Self.bytes(entries.reduce(0) { $0 + $1.size })) from \(cache.directory)")
        case .remove:
            guard let uri, let entry = try Self.check({ try cache.remove(uri) }) else {
                Output.writeLine(STDERR_FILENO, "gstplay: error: media cache: not cached: \(uri ?? "")")
                throw ExitCode(1)
            }
            Output.writeLine(STDOUT_FILENO, "Removed \(uri) (\(Self.bytes(entry.size))) from \(cache.directory)")
        case .list:
            let entries = try Self.check { try cache.entries() }
            let now = Date().timeIntervalSince1970
            for entry in entries.reversed() {
                Output.writeLine(STDOUT_FILENO, "\(Self.bytes(entry.size).padded(toLength: 10)) "
                      + "stored \(Self.age(now - entry.storedAt)) ago, used \(Self.age(now - entry.lastUsed)) ago  \(entry.uri)")
            }
            Output.writeLine(STDOUT_FILENO, "\(entries.count) file(s), \(Self.bytes(entries.reduce(0) { $0 + $1.size })) in \(cache.directory)")
        }
    }

    /// Runs a cache operation; a ``MediaCache/Problem`` becomes one error line and exit 1.
    private static func check<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let problem as MediaCache.Problem {
            Output.writeAll(STDERR_FILENO, "gstplay: error: media cache: \(problem.description)\n")
            throw ExitCode(1)
        }
    }

    /// `812 B`, `86.3 KiB`, `4.8 MiB`, `1.2 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(count) B" : CFormat.number("%.1f", value) + " " + units[unit]
    }

    /// `12 s`, `5 min`, `3 h`, `2 d`.
    static func age(_ seconds: Double) -> String {
        let s = WholeNumber.clamped(seconds, to: 0...Int.max)   // the index is outside text: any number
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86400 { return "\(s / 3600) h" }
        return "\(s / 86400) d"
    }
}
