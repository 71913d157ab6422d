import Backend
import CGStreamer
import Foundation
import ProcessProbe

/// `gstplay-bench child <mode> …`: the measured programs the harness spawns, one per process so
/// each gets a clean address space and its own rusage. Results go to stdout as `key=value` lines.
enum ChildCommand {
    static let usage = """
        gstplay-bench child noop | init
        gstplay-bench child playbin  [--sync true|false] [--flags FLAGS] CLIP
        gstplay-bench child player   [--sync true|false] [--keep-pitch true|false] [--stats MS] [--tick MS] [--delegate-queue true|false] CLIP
        gstplay-bench child seek     [--count N] [--seed S] [--settle-ms MS] [--paths backend,backend-nopitch,floor] CLIP
        gstplay-bench child tick     [--seconds S] [--interval MS] CLIP
        gstplay-bench child concurrency [--raw true|false] N CLIP
        gstplay-bench child abr      [--player gstplay-buffer|gstplay-throughput|playbin] [--seconds S] URI
        """

    /// Runs a child mode and returns its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let mode = arguments.first else {
            FileHandle.standardError.write(Data("usage:\n\(usage)\n".utf8))
            return 2
        }
        let parsed: ChildArguments
        do { parsed = try ChildArguments(Array(arguments.dropFirst())) } catch {
            FileHandle.standardError.write(Data("gstplay-bench child: \(error)\n".utf8))
            return 2
        }
        do {
            switch mode {
            case "noop": return 0
            case "init":
                gst_init(nil, nil)
                return 0
            case "playbin": return try PlaybinChild.run(parsed)
            case "player": return try PlayerChild.run(parsed)
            case "seek": return try SeekChild.run(parsed)
            case "tick": return try TickChild.run(parsed)
            case "concurrency": return try ConcurrencyChild.run(parsed)
            case "abr": return try ABRChild.run(parsed)
            default:
                FileHandle.standardError.write(Data("gstplay-bench child: unknown mode '\(mode)'\nusage:\n\(usage)\n".utf8))
                return 2
            }
        } catch {
            FileHandle.standardError.write(Data("gstplay-bench child \(mode): \(error)\n".utf8))
            return 1
        }
    }
}

/// `--name value` options and positional words of a child command line.
struct ChildArguments {
    var options: [String: String] = [:]
    var positional: [String] = []

    init(_ words: [String]) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") {
                guard index + 1 < words.count else { throw BenchError("option \(word) needs a value") }
                options[String(word.dropFirst(2))] = words[index + 1]
                index += 2
            } else {
                positional.append(word)
                index += 1
            }
        }
    }

    func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let text = options[name] else { return value }
        switch text {
        case "true", "on", "yes", "1": return true
        case "false", "off", "no", "0": return false
        default: throw BenchError("--\(name) takes true or false, not '\(text)'")
        }
    }

    func int(_ name: String, default value: Int) throws -> Int {
        guard let text = options[name] else { return value }
        guard let number = Int(text) else { throw BenchError("--\(name) takes an integer, not '\(text)'") }
        return number
    }

    func double(_ name: String, default value: Double) throws -> Double {
        guard let text = options[name] else { return value }
        guard let number = Double(text) else { throw BenchError("--\(name) takes a number, not '\(text)'") }
        return number
    }

    func clip(at index: Int = 0) throws -> String {
        guard index < positional.count else { throw BenchError("missing clip path") }
        let path = positional[index]
        guard FileManager.default.fileExists(atPath: path) else { throw BenchError("no such clip: \(path)") }
        return path
    }
}

/// Shared bits of the children.
enum ChildSupport {
    /// The sink description every contender uses: a fake sink, clock-synchronised or not.
    static func sinkDescription(sync: Bool) -> String { "fakesink sync=\(sync)" }

    /// `gst_filename_to_uri` for an absolute or relative path.
    static func uri(forPath path: String) throws -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let raw = gst_filename_to_uri(path, &error) else {
            let text = error?.pointee.message.map { String(cString: $0) } ?? "bad path"
            if let error { g_error_free(error) }
            throw BenchError("cannot make a URI of \(path): \(text)")
        }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// A sink bin from a description (`gst_parse_bin_from_description` with ghost pads), floating ref sunk.
    static func makeSink(_ description: String) throws -> UnsafeMutablePointer<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        let element = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            let text = error.pointee.message.map { String(cString: $0) } ?? "parse error"
            g_error_free(error)
            throw BenchError("bad sink '\(description)': \(text)")
        }
        guard let element else { throw BenchError("bad sink '\(description)'") }
        return element
    }

    /// The text of an ERROR message.
    static func errorText(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        return error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// `VmRSS` of this process in KiB.
    static func currentRSSKiB() -> Int { ProcessProbe.current.rssKiB ?? 0 }

    /// `VmHWM` (peak resident set of this address space) in KiB. Unlike `ru_maxrss` it does not
    /// include the parent's peak that `posix_spawn` (vfork + exec) passes on to the child.
    static func peakRSSKiB() -> Int { ProcessProbe.current.peakRSSKiB ?? 0 }

    /// CPU per thread of this process so far, as `name:ms;name:ms;…` (`/proc/self/task/*/schedstat`).
    static func threadReport() -> String {
        guard let sample = ThreadSample(pid: getpid()) else { return "" }
        return sample.threads.map { "\($0.name.replacingOccurrences(of: ";", with: "_")):\(String(format: "%.3f", Double($0.nanoseconds) / 1e6))" }
            .joined(separator: ";")
    }

    /// `getrusage(RUSAGE_SELF)`.
    static func selfUsage() -> rusage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage
    }

    /// Writes `key=value` lines to stdout.
    static func emit(_ pairs: [(String, String)]) {
        var text = ""
        for (key, value) in pairs { text += "\(key)=\(value)\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func configuration(sync: Bool) -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description(sinkDescription(sync: sync))
        configuration.audioSink = .description(sinkDescription(sync: sync))
        return configuration
    }
}
