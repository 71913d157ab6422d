import Foundation
import XCTest

/// The external programs the tests may run: `Tests/tools.list`, one row a program with the package
/// that provides it (checked after installing by `make setup-test`, guarded by ExternalToolsTests).
/// ``path(_:)`` is the one way a test finds such a program: only listed programs, and only where
/// their package puts them (the system's directories or the test venv), never a copy that happens
/// to be first on this machine's `PATH`. Any thread.
public enum ExternalTools {
    /// One row of the list.
    public struct Tool: Sendable, Equatable {
        /// The program's file name.
        public var program: String
        /// `deb`, `pypi` or `toolchain`.
        public var source: String
        /// The Debian package that owns it (`dpkg -S`), the PyPI distribution, or `swift`.
        public var package: String
        /// The Makefile's package that brings it in, `base` (Debian's essential set) or `toolchain`.
        public var installer: String
        /// `test`, `bench`, `fuzz` or `fixtures`: the make target group that checks it.
        public var group: String
    }

    /// `<root>/Tests/tools.list`.
    public static let listFile = TestMedia.root.appendingPathComponent("Tests/tools.list")

    /// The directories a Debian package installs programs into.
    public static let systemDirectories = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]

    /// The test venv's programs (`make setup-test`).
    public static let venvDirectory = TestMedia.root.appendingPathComponent(".build/test-venv/bin").path

    /// Every row of ``listFile`` (comment and blank lines skipped); empty when it cannot be read.
    public static let tools: [Tool] = parse((try? String(contentsOf: listFile, encoding: .utf8)) ?? "")

    /// The rows of a list's text.
    public static func parse(_ text: String) -> [Tool] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count >= 4, !fields[0].hasPrefix("#"), let colon = fields[1].firstIndex(of: ":") else { return nil }
            return Tool(program: fields[0], source: String(fields[1][..<colon]), package: String(fields[1][fields[1].index(after: colon)...]),
                        installer: fields[2], group: fields[3])
        }
    }

    /// The listed program `name` where its package puts it, or nil (with why in `reason`) when it
    /// is not listed or not installed.
    public static func path(_ name: String) -> String? { locate(name).path }

    /// ``path(_:)`` with the reason it failed: not on the list, or missing with the package to install.
    public static func locate(_ name: String) -> (path: String?, reason: String) {
        guard let tool = tools.first(where: { $0.program == name }) else {
            return (nil, "\(name) is not on Tests/tools.list: add it with the package that provides it")
        }
        let directories: [String]
        switch tool.source {
        case "pypi": directories = [venvDirectory]
        case "toolchain": directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        default: directories = systemDirectories
        }
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.isExecutableFile(atPath: candidate),
               FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return (candidate, "")
            }
        }
        return (nil, "\(name) is missing: it comes from \(tool.source == "pypi" ? "PyPI's" : "Debian's") \(tool.package) (`make setup-test` installs it)")
    }

    /// The path to run for `program` (a name, or a path): a program of the system's directories
    /// (by name, or by a path into them) must be on the list and installed, else the running test
    /// fails with why; any other path (this package's scripts and products) is taken as it is.
    public static func checkedPath(_ program: String) -> String {
        let name = (program as NSString).lastPathComponent
        let directory = (program as NSString).deletingLastPathComponent
        guard !program.hasPrefix("/") || systemDirectories.contains(directory) else { return program }
        let found = locate(name)
        guard let path = found.path else {
            XCTFail(found.reason)
            return program.hasPrefix("/") ? program : "/usr/bin/\(program)"
        }
        return path
    }
}
