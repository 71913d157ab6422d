import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A checked `gstplay thumbnails` request.
struct ThumbnailsRequest: Equatable, Sendable {
    /// Where the images go.
    enum Destination: Equatable, Sendable {
        /// One contact-sheet PNG at this path.
        case sheet(String)
        /// One PNG per time in this directory (created if missing).
        case directory(String)
    }

    var location: String
    var times: ThumbnailTimes
    var width: Int
    var columns: Int
    var seekMode: SeekMode
    var destination: Destination
    var quiet: Bool
}

/// Runs a ``ThumbnailsRequest``: checks the destination, decodes the frames on the Backend's
/// ``ThumbnailGenerator`` (progress bar on a terminal), composes the sheet with
/// ``ContactSheet`` and writes every file through a temporary name and `rename(2)`, so a failure
/// leaves no partial file. **Thread:** the main task of the process.
struct ThumbnailsRun {
    let request: ThumbnailsRequest

    /// Exit status: 0 written, 1 failed (one error line on stderr).
    func run() async -> Int32 {
        do {
            try ImageFileWriter.checkDestination(request.destination)
            let thumbnails = try await decode()
            try write(thumbnails)
            return 0
        } catch {
            ProgressBar.clear(enabled: showsProgress)
            Output.writeLine(STDERR_FILENO, "gstplay: error: \(error)")
            return 1
        }
    }

    private var showsProgress: Bool { !request.quiet && isatty(STDERR_FILENO) == 1 }

    /// All thumbnails, in order; the first failed time fails the whole run.
    private func decode() async throws -> [Thumbnail] {
        // On a sheet each tile shows its time, written while the frame is encoded (one
        // textoverlay for all frames instead of one per tile in the sheet).
        var isSheet = false
        if case .sheet = request.destination { isSheet = true }
        let generator = ThumbnailGenerator(location: request.location, maximumSize: ImageSize(width: request.width),
                                           format: .png, seekMode: request.seekMode, burnsInTime: isSheet)
        var steps: [ThumbnailResult] = []
        do {
            for try await step in generator.thumbnails(at: request.times) {
                steps.append(step)
                if showsProgress { ProgressBar.draw(done: step.index + 1, total: step.total) }
            }
        } catch {
            throw ThumbnailsFailure(location: request.location, cause: error)
        }
        ProgressBar.clear(enabled: showsProgress)
        let failures = steps.compactMap { step -> ImageError? in
            if case .failure(let error) = step.result { return error } else { return nil }
        }
        if let first = failures.first {
            let more = failures.count > 1 ? " (and \(failures.count - 1) more)" : ""
            throw ThumbnailsFailure(location: request.location, cause: first, suffix: more)
        }
        return steps.compactMap { try? $0.result.get() }
    }

    private func write(_ thumbnails: [Thumbnail]) throws {
        switch request.destination {
        case .sheet(let path):
            let tiles = thumbnails.map { ContactSheet.Tile(image: $0.image, caption: nil) }
            let sheet: Image
            do { sheet = try ContactSheet.compose(tiles, columns: request.columns) } catch {
                throw ThumbnailsFailure(location: request.location, cause: error)
            }
            try ImageFileWriter.write(sheet.bytes, to: path)
            if !request.quiet {
                let rows = (tiles.count + request.columns - 1) / request.columns
                Output.writeLine(STDOUT_FILENO, "wrote \(path): \(tiles.count) \(tiles.count == 1 ? "frame" : "frames") in \(min(request.columns, tiles.count))×\(rows), \(sheet.width)x\(sheet.height)")
            }
        case .directory(let directory):
            let base = ImageFileWriter.baseName(of: request.location)
            let digits = String(thumbnails.count).count
            let files = thumbnails.enumerated().map { index, thumbnail in
                let number = String(repeating: "0", count: max(0, digits - String(index + 1).count)) + String(index + 1)
                return (name: "\(base)-\(number)-\(ImageFileWriter.timestamp(thumbnail.actualTime)).png", bytes: thumbnail.image.bytes)
            }
            try ImageFileWriter.writeAll(files, into: directory)
            if !request.quiet, let first = thumbnails.first {
                Output.writeLine(STDOUT_FILENO, "wrote \(files.count) \(files.count == 1 ? "image" : "images") (\(first.image.width)x\(first.image.height)) to \(directory)")
            }
        }
    }
}

/// A failed run: the media location and what went wrong, as one line.
struct ThumbnailsFailure: Error, CustomStringConvertible {
    var location: String
    var cause: any Error
    var suffix = ""
    var description: String { "\(location): \(cause)\(suffix)" }
}

/// The progress bar drawn on stderr while frames are decoded (a terminal only).
enum ProgressBar {
    /// `\r[#######.........]  7/16` (cleared to the end of the line).
    static func draw(done: Int, total: Int, width: Int = 30) {
        Output.writeAll(STDERR_FILENO, "\r" + line(done: done, total: total, width: width) + "\u{1B}[K")
    }

    /// The bar's text. Pure.
    static func line(done: Int, total: Int, width: Int = 30) -> String {
        let total = max(total, 1), done = min(max(done, 0), total)
        let filled = width * done / total
        return "thumbnails [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total)"
    }

    /// Removes the bar (`\r` + clear line) when one may be on screen.
    static func clear(enabled: Bool) {
        if enabled { Output.writeAll(STDERR_FILENO, "\r\u{1B}[K") }
    }
}

extension ImageFileWriter {
    /// Refuses, before any decoding, a destination that cannot work: a sheet path that is a
    /// directory or whose directory is missing or not writable; an output directory that is a
    /// file or cannot be created.
    static func checkDestination(_ destination: ThumbnailsRequest.Destination) throws {
        switch destination {
        case .sheet(let path):
            if PathText.isDirectory(path) {
                throw ImageFileWriter.Failure(path: path, reason: "it is a directory")
            }
            try checkWritableDirectory(parent(of: path), for: path)
        case .directory(let path):
            if PathText.exists(path) {
                guard PathText.isDirectory(path) else { throw ImageFileWriter.Failure(path: path, reason: "it is not a directory") }
                try checkWritableDirectory(path, for: path)
            } else {
                try checkWritableDirectory(parent(of: path), for: path)
            }
        }
    }
}
