import BackendControl
import Glibc

/// Runs `gstplay thumbnails`: the library's ``ThumbnailExport`` with a progress bar on a terminal
/// and the summary line on stdout (none with `--quiet`). **Thread:** the main task of the process.
struct ThumbnailsRun {
    let export: ThumbnailExport
    let quiet: Bool

    /// Exit status: 0 written, 1 failed (one error line on stderr).
    func run() async -> Int32 {
        let showsProgress = !quiet && isatty(STDERR_FILENO) == 1
        do {
            let written = try await export.run { done, total in if showsProgress { ProgressBar.draw(done: done, total: total) } }
            ProgressBar.clear(enabled: showsProgress)
            if !quiet { Output.writeLine(STDOUT_FILENO, written.summary) }
            return 0
        } catch {
            ProgressBar.clear(enabled: showsProgress)
            Output.writeLine(STDERR_FILENO, "gstplay: error: \(error)")
            return 1
        }
    }
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
