import Foundation
import TestSupport
import XCTest

/// `gstplay-bench`'s two command lines (the harness's and `abr-qoe`'s) read their flags through
/// one `ArgumentCursor`: a bad argument is one clear line and exit status 2, before anything runs;
/// `--help` prints the usage and exits 0. Runs the built `gstplay-bench` product.
final class BenchArgumentsTests: XCTestCase {
    private func bench(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = GstplayProcess(arguments, product: "gstplay-bench", input: .devNull)
        try child.start()
        let status = child.waitForExit(timeout: 20)
        return (status, child.stdout, child.stderr)
    }

    private func assertRefused(_ arguments: [String], _ line: String, file: StaticString = #filePath, line number: UInt = #line) throws {
        let result = try bench(arguments)
        XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)", file: file, line: number)
        XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init), line, "\(arguments)", file: file, line: number)
    }

    func testTheHarnessRefusesBadArgumentsWithOneLine() throws {
        try assertRefused(["--seeks", "x"], "gstplay-bench: --seeks takes a whole number, not 'x'")
        try assertRefused(["--startup-runs", "-1"], "gstplay-bench: --startup-runs takes a whole number, not '-1'")
        try assertRefused(["--smoke", "--clips"], "gstplay-bench: --clips needs a value")
        try assertRefused(["--smoke", "--bogus"], "gstplay-bench: unknown argument '--bogus'")
        try assertRefused(["--only", "startup,nope"], "gstplay-bench: unknown case 'nope'")
        try assertRefused(["--tick-seconds", "0"], "gstplay-bench: --tick-seconds takes a positive number")
    }

    func testTheQoECommandRefusesBadArgumentsWithOneLine() throws {
        try assertRefused(["abr-qoe", "--seconds", "-2"], "gstplay-bench abr-qoe: --seconds takes a number ≥ 0, not '-2'")
        try assertRefused(["abr-qoe", "--trace-start", "inf"], "gstplay-bench abr-qoe: --trace-start takes a number ≥ 0, not 'inf'")
        try assertRefused(["abr-qoe", "--smoke", "--out"], "gstplay-bench abr-qoe: --out needs a value")
        try assertRefused(["abr-qoe", "--protocols", "hls,rtsp"], "gstplay-bench abr-qoe: --protocols takes hls and/or dash, not 'rtsp'")
        try assertRefused(["abr-qoe", "--bogus"], "gstplay-bench abr-qoe: unknown argument '--bogus'")
        // A count too large for Int: a clear line, not a trap in the conversion.
        try assertRefused(["abr-qoe", "--runs", "1e300"], "gstplay-bench abr-qoe: --runs takes a whole number, not '1e300'")
        try assertRefused(["abr-qoe", "--jobs", "2.5"], "gstplay-bench abr-qoe: --jobs takes a whole number, not '2.5'")
    }

    func testHelpPrintsTheUsageOfEachCommand() throws {
        let harness = try bench(["--help"])
        XCTAssertEqual(harness.status, 0, harness.stderr)
        XCTAssertTrue(harness.stdout.hasPrefix("usage: gstplay-bench [--clips DIR]"), harness.stdout)
        let qoe = try bench(["abr-qoe", "-h"])
        XCTAssertEqual(qoe.status, 0, qoe.stderr)
        XCTAssertTrue(qoe.stdout.hasPrefix("usage: gstplay-bench abr-qoe"), qoe.stdout)
    }
}
