import Foundation
import XCTest

/// A Python script of Tests/Scripts run with the test venv's interpreter (`make test-venv`, which
/// `make test` runs), where the PyPI clients live (python-mpv-jsonipc, websockets, aiohttp…).
public enum VenvScript {
    /// The venv's Python.
    public static let python = TestMedia.root.appendingPathComponent(".build/test-venv/bin/python3").path

    /// What a script printed and how it ended.
    public struct Result {
        /// Its standard output.
        public let output: String
        /// Its standard error.
        public let errors: String
        /// Its exit status (-1: it could not be started).
        public let status: Int32

        /// Every line of standard output that is a JSON object.
        public var objects: [[String: Any]] { output.split(separator: "\n").compactMap { jsonObject(String($0)) } }
        /// The last line of standard output as a JSON object.
        public var lastObject: [String: Any]? { output.split(separator: "\n").last.flatMap { jsonObject(String($0)) } }
        /// The `{"step": NAME, "ok": …}` lines by name (the first of each name).
        public var steps: [String: [String: Any]] {
            Dictionary(objects.compactMap { step in (step["step"] as? String).map { ($0, step) } }, uniquingKeysWith: { first, _ in first })
        }
        /// Output and errors together, for a failure message.
        public var transcript: String { output + errors }
    }

    /// Fails the running test when the venv is missing (run `make test-venv`); true when present.
    @discardableResult
    public static func assertInstalled(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let present = FileManager.default.isExecutableFile(atPath: python)
        XCTAssertTrue(present, "no \(python): run `make test-venv` (make test does) to install the PyPI clients", file: file, line: line)
        return present
    }

    /// Runs Tests/Scripts/`name` with `arguments`, `timeout` seconds at most (then it is killed).
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 60) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [TestMedia.root.appendingPathComponent("Tests/Scripts/\(name)").path] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        guard (try? process.run()) != nil else { return Result(output: "", errors: "cannot run \(python)", status: -1) }
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        nonisolated(unsafe) var errorText = Data()
        let errorRead = DispatchGroup()
        DispatchQueue.global().async(group: errorRead) { errorText = err.fileHandleForReading.readDataToEndOfFile() }
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        killer.cancel()
        errorRead.wait()
        return Result(output: output, errors: String(decoding: errorText, as: UTF8.self), status: process.terminationStatus)
    }
}
