import ArgumentParser
import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// `gstplay thumbnails <file> [--count 16] [--width 240] [--columns 4] [--accurate]
/// (-o sheet.png | --out-dir DIR)`: a contact sheet (one PNG grid with each tile's time
/// printed on it) or one PNG per time. Routed by ``CommandRouting``; runs in the process's main
/// task and exits the process.
struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Write a contact sheet (a PNG grid of frames with their times) or one PNG per frame.",
        usage: "gstplay thumbnails <file> [--count 16 | --times t1,t2,...] [--width 240] [--columns 4] [--accurate] (-o sheet.png | --out-dir DIR)",
        discussion: """
            Frames are decoded on a pipeline of their own at COUNT times spread evenly over the \
            duration (the middle of each of COUNT equal parts), or at the --times given. Images \
            have the display size (pixel aspect ratio applied), scaled down to --width.
            Exit status: 0 written; 1 the media or the output failed (nothing is left behind); \
            2 usage error; 130 interrupted.
            """)

    @Argument(help: ArgumentHelp("The media file or URI.", valueName: "file"))
    var location: String

    @Option(help: "How many frames, spread evenly over the duration.")
    var count: Int?

    @Option(help: ArgumentHelp("Frames at these times instead of --count: comma-separated seconds or [H:]M:SS[.f].",
                               valueName: "t1,t2,..."))
    var times: String?

    @Option(help: "Largest width of each image in pixels (the height follows the display aspect ratio).")
    var width: Int = 240

    @Option(help: "Tiles per row of the contact sheet.")
    var columns: Int = 4

    @Flag(help: "Seek to exactly each time (slower) instead of the nearest key frame.")
    var accurate = false

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the contact sheet to this PNG file.", valueName: "sheet.png"))
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Write one PNG per frame into this directory instead.", valueName: "dir"))
    var outputDirectory: String?

    @Flag(name: [.customShort("q"), .long], help: "No progress bar and no summary line; errors are still printed.")
    var quiet = false

    mutating func validate() throws {
        _ = try makeRequest()
    }

    /// The checked request; throws `ValidationError` (exit 2) for bad values.
    func makeRequest() throws -> ThumbnailExport {
        guard !location.trimmingWhitespace().isEmpty else { throw ValidationError("empty file name") }
        let destination: ThumbnailExport.Destination
        switch (output, outputDirectory) {
        case (let file?, nil):
            guard !file.isEmpty else { throw ValidationError("-o needs a file name") }
            destination = .sheet(file)
        case (nil, let dir?):
            guard !dir.isEmpty else { throw ValidationError("--out-dir needs a directory") }
            destination = .directory(dir)
        case (nil, nil): throw ValidationError("give -o sheet.png or --out-dir DIR")
        case (_?, _?): throw ValidationError("-o and --out-dir cannot be used together")
        }
        let which: ThumbnailTimes
        switch (count, times) {
        case (_?, _?): throw ValidationError("--count and --times cannot be used together")
        case (_, let list?): which = .times(try Self.parseTimes(list))
        case (let count, nil):
            let count = count ?? 16
            guard (1...1000).contains(count) else { throw ValidationError("--count must be between 1 and 1000 (got \(count))") }
            which = .count(count)
        }
        guard (16...4096).contains(width) else { throw ValidationError("--width must be between 16 and 4096 (got \(width))") }
        guard (1...64).contains(columns) else { throw ValidationError("--columns must be between 1 and 64 (got \(columns))") }
        return ThumbnailExport(location: location, times: which, width: width, columns: columns,
                               seekMode: accurate ? .accurate : .keyUnit, destination: destination)
    }

    /// `1,2.5,0:10` → times; every item must be an absolute time.
    static func parseTimes(_ text: String) throws -> [MediaTime] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard items.count <= 1000 else { throw ValidationError("--times: at most 1000 times") }
        return try items.map { item in
            switch SeekArgument.parse(item) {
            case .success(.absolute(let time)): return time
            case .success: throw ValidationError("--times: '\(item.trimmingWhitespace())' is not a time from the start (use seconds or [H:]M:SS[.f])")
            case .failure(let error): throw ValidationError("--times: \(error.message)")
            }
        }
    }

    func run() async throws {
        let code = await ThumbnailsRun(export: try makeRequest(), quiet: quiet).run()
        Glibc.exit(code)
    }
}
