import Foundation
import TestSupport
import XCTest

/// The CLI links FoundationEssentials only: full Foundation (and with it CoreFoundation,
/// FoundationInternationalization and ICU's data) costs ~50 MB of static binary and ~3 MiB of
/// resident memory in every gstplay process (docs/BENCHMARKS.md, "Memory by mapping"). One
/// `import Foundation` anywhere in the CLI's module graph brings it back: the import autolinks the
/// library, and its `StringProtocol` extensions (`contains`, `range(of:)`, `trimmingCharacters`)
/// leak into every module that imports that one and win overload resolution there.
final class FoundationLinkTests: XCTestCase {
    /// The shared libraries the dynamic loader would map for the built `gstplay`
    /// (`LD_TRACE_LOADED_OBJECTS=1`, what `ldd` does): FoundationEssentials, no Foundation.
    func testTheCLILinksFoundationEssentialsOnly() throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = GstplayProcess.binary
        process.environment = ["LD_TRACE_LOADED_OBJECTS": "1", "PATH": "/usr/bin:/bin"]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let names = text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertTrue(names.contains { $0.hasPrefix("libgstreamer-1.0.so") }, "no library list from the loader:\n\(text)")
        let foundation = names.filter {
            $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization") || $0.hasPrefix("lib_FoundationICU")
                || $0.hasPrefix("libCoreFoundation")
        }
        XCTAssertEqual(foundation, [], "gstplay links full Foundation")
    }
}
