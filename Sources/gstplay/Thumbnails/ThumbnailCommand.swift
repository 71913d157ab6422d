import ArgumentParser
import Backend
import BackendControl
import Glibc

/// `gstplay thumbnail [-s 256] <file-or-uri> <out.png>`: one representative frame as a PNG of
/// at most `size × size` pixels, the command of the freedesktop thumbnailer
/// `share/thumbnailers/gstplay.thumbnailer` (`Exec=gstplay thumbnail -s %s %u %o`). Routed by
/// ``CommandRouting``; runs in the process's main task and exits the process.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write one representative frame of a video as a PNG (the file-manager thumbnailer).",
        usage: "gstplay thumbnail [-s 256] <file-or-uri> <out.png>",
        discussion: """
            Tries the frames at 1/3, 2/3, 1/10, 9/10 and 1/2 of the duration (key frames) and \
            writes the first that is not uniform (black or one colour), else the most varied one, \
            scaled down (never up) to fit SIZE x SIZE with the display aspect ratio.
            Exit status: 0 written; 1 the media failed (not found, not media, audio only) or the \
            output could not be written, and nothing is written; 2 usage error.
            """)

    @Option(name: [.customShort("s"), .long], help: "Largest width and height in pixels (8–4096).")
    var size: Int = 256

    @Argument(help: ArgumentHelp("The media file or URI (%i or %u of a thumbnailer).", valueName: "file-or-uri"))
    var location: String

    @Argument(help: ArgumentHelp("The PNG to write (%o of a thumbnailer).", valueName: "out.png"))
    var output: String

    mutating func validate() throws {
        guard !location.trimmingWhitespace().isEmpty else { throw ValidationError("empty file name") }
        guard !output.isEmpty else { throw ValidationError("empty output file name") }
        guard (8...4096).contains(size) else { throw ValidationError("--size must be between 8 and 4096 (got \(size))") }
    }

    func run() async throws {
        do {
            try ThumbnailExport.checkDestination(.sheet(output))
            ThumbnailGenerator.preferLightDecoders() // one frame: loading gst-libav costs more than decoding it
            let generator = ThumbnailGenerator(location: location, maximumSize: ImageSize(width: size, height: size), format: .png)
            let thumbnail: Thumbnail
            do { thumbnail = try await generator.representativeThumbnail() } catch {
                throw ThumbnailExport.Failure(location: location, cause: error)
            }
            try ImageFileWriter.write(thumbnail.image.bytes, to: output)
        } catch {
            Output.writeLine(STDERR_FILENO, "gstplay: error: \(error)")
            Glibc.exit(ExitStatus.playbackError)
        }
        Glibc.exit(ExitStatus.success)
    }
}
