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
    /// The shared libraries the dynamic loader maps for the built `gstplay` (`ldd`, glibc's):
    /// FoundationEssentials, no Foundation.
    func testTheCLILinksFoundationEssentialsOnly() throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [GstplayProcess.binary.path]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let names = text.split(separator: "\n").compactMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) }
        XCTAssertTrue(names.contains { $0.hasPrefix("libgstreamer-1.0.so") },
                      "no library list from ldd for \(GstplayProcess.binary.path) (status \(process.terminationStatus)):\n\(text)")
        let foundation = names.filter {
            $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization") || $0.hasPrefix("lib_FoundationICU")
                || $0.hasPrefix("libCoreFoundation")
        }
        XCTAssertEqual(foundation, [], "gstplay links full Foundation")
    }
}
