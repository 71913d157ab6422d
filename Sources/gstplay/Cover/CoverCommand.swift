import ArgumentParser
import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// `gstplay cover <file> -o out.png`: writes the media's cover art (its `image` tag: an ID3
/// picture, a FLAC/Vorbis picture…) as PNG, or JPEG for a `.jpg`/`.jpeg` name.
/// Routed by ``CommandRouting``; runs in the process's main task and exits the process.
struct CoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Write the cover art embedded in a media file to a PNG or JPEG file.",
        usage: "gstplay cover <file> -o out.png",
        discussion: """
            The file is read with GStreamer's discoverer, not played. The front cover is taken \
            when there are several pictures. A picture already in the wanted format is written \
            as it is; otherwise it is decoded and encoded again.
            Exit status: 0 written; 1 the media could not be read or the file not written; \
            2 usage error; 3 the media has no cover art.
            """)

    @Argument(help: ArgumentHelp("The media file or URI.", valueName: "file"))
    var location: String

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the picture to this file (.png, or .jpg/.jpeg for JPEG).", valueName: "out.png"))
    var output: String

    mutating func validate() throws {
        guard !location.trimmingWhitespace().isEmpty else { throw ValidationError("empty file name") }
        guard !output.trimmingWhitespace().isEmpty else { throw ValidationError("-o needs a file name") }
    }

    func run() async throws {
        Glibc.exit(CoverFile.run(location: location, path: output, output: Output()))
    }
}

extension CoverFile {
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
