import ArgumentParser
import BackendControl
import Glibc

/// `gstplay mime-types`: prints ``PlayableMIMETypes/playable()``, one per line (`make install`
/// writes them into the desktop entry's `MimeType`).
struct MIMETypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mime-types",
        abstract: "Print the MIME types the installed GStreamer plugins can play, one per line (the desktop entry's MimeType).")

    func run() throws {
        Output.writeLines(STDOUT_FILENO, PlayableMIMETypes.playable().joined(separator: "\n"))
    }
}
