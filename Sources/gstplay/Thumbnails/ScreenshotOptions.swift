import ArgumentParser
import BackendControl

extension OutputOptions {
    /// `--screenshot-template`, `--screenshot-directory` checked; `ValidationError` (exit 2) for an empty value.
    func screenshotNaming() throws -> ScreenshotNaming {
        if let screenshotTemplate, screenshotTemplate.trimmingWhitespace().isEmpty {
            throw ValidationError("--screenshot-template needs a file name")
        }
        if let screenshotDirectory, screenshotDirectory.trimmingWhitespace().isEmpty {
            throw ValidationError("--screenshot-directory needs a path")
        }
        return ScreenshotNaming(template: screenshotTemplate, directory: screenshotDirectory)
    }
}
