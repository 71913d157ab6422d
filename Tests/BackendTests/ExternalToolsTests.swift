import Foundation
import TestSupport
import XCTest

/// Guards Tests/tools.list, the one list of external programs: a program the tests, their scripts,
/// Fixtures/make-fixtures.sh or the Makefile run must be on it, and every row's installer must be a
/// package the Makefile installs. A program used without a row is what once made the suite green only
/// where it was written (a tool installed by hand, in no package the Makefile installs).
final class ExternalToolsTests: XCTestCase {
    /// Words that appear as data in the scanned files and happen to name a program on this machine
    /// (a JSON key, a property or a command of the player's own language), never run as programs.
    static let notPrograms: Set<String> = [
        "clear", "dash", "dir", "file", "false", "last", "link", "open", "reset", "route", "shutdown", "size",
        "sum", "time", "w", "yes", "kill", "id", "date", "test", "echo", "printf", "read", "wait", "exit", "set",
        "less", "top", "gzip", "bridge", "sync",
    ]

    private var root: URL { TestMedia.root }

    func testEveryProgramTheTestsAndTheMakefileRunIsOnTheList() throws {
        let listed = Set(ExternalTools.tools.map(\.program))
        XCTAssertGreaterThan(listed.count, 20, "Tests/tools.list could not be read")
        var unlisted: [String: Set<String>] = [:]
        for file in scannedFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            let kind = file.pathExtension
            var programs = ProgramScan.absolutePaths(in: text)
            if kind == "swift" || kind == "py" {
                programs.formUnion(ProgramScan.literalWords(in: text).filter(Self.isInstalledProgram))
            }
            if kind == "sh" || file.lastPathComponent == "Makefile" {
                programs.formUnion(ProgramScan.commandWords(in: text, recipesOnly: kind != "sh").filter(Self.isInstalledProgram))
            }
            for program in programs where !listed.contains(program) && !Self.notPrograms.contains(program) {
                unlisted[program, default: []].insert(file.path.replacingOccurrences(of: root.path + "/", with: ""))
            }
        }
        XCTAssertTrue(unlisted.isEmpty, "programs run but not on Tests/tools.list (add each with its package; a word here that is "
                      + "data, not a program, goes to ExternalToolsTests.notPrograms):\n"
                      + unlisted.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value.sorted().joined(separator: ", "))" }.joined(separator: "\n"))
    }

    func testEveryRowIsInstalledByTheMakefile() throws {
        let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
        let installed = ProgramScan.packageLists(in: makefile)
        XCTAssertTrue(installed.contains("xdotool") && installed.contains("async-upnp-client"), "the Makefile's package lists: \(installed.sorted())")
        for tool in ExternalTools.tools {
            XCTAssertTrue(["deb", "pypi", "toolchain"].contains(tool.source), "\(tool.program): source \(tool.source)")
            XCTAssertTrue(["test", "bench", "fuzz", "fixtures"].contains(tool.group), "\(tool.program): group \(tool.group)")
            if tool.installer == "base" || tool.installer == "toolchain" { continue }
            XCTAssertTrue(installed.contains(tool.installer),
                          "\(tool.program): \(tool.installer) is in none of the Makefile's package lists")
        }
    }

    func testTheResolverFindsOnlyListedProgramsWhereTheirPackagePutsThem() {
        XCTAssertEqual(ExternalTools.path("gst-launch-1.0"), "/usr/bin/gst-launch-1.0")
        XCTAssertEqual(ExternalTools.path("upnp-client"), ExternalTools.venvDirectory + "/upnp-client")
        // ImageMagick's convert from its package, whatever stands first on PATH.
        XCTAssertEqual(ExternalTools.path("convert"), "/usr/bin/convert")
        let unlisted = ExternalTools.locate("gssdp-discover")
        XCTAssertNil(unlisted.path)
        XCTAssertTrue(unlisted.reason.contains("not on Tests/tools.list"), unlisted.reason)
    }

    func testTheScannerFindsProgramsInEachKindOfFile() {
        XCTAssertEqual(ProgramScan.absolutePaths(in: #"tool("/usr/bin/gssdp-discover", ["-i"]); x = "/usr/sbin/ip""#), ["gssdp-discover", "ip"])
        XCTAssertEqual(ProgramScan.literalWords(in: #"run("xdotool", ["key"]); subprocess.run(['ffprobe', x])"#), ["xdotool", "key", "ffprobe"])
        XCTAssertEqual(ProgramScan.commandWords(in: "a=1 foo --x | bar; if baz; then qux $(quux -n)\n# nope y\n", recipesOnly: false),
                       ["foo", "bar", "baz", "qux", "quux"])
        XCTAssertEqual(ProgramScan.commandWords(in: "X := y\ntarget:\n\t@cmd arg && other\n", recipesOnly: true), ["cmd", "other"])
        XCTAssertEqual(ProgramScan.packageLists(in: "APT_PACKAGES := a b \\\n\tc\nTEST_PACKAGES += d\nPY_TEST_PACKAGES := e==1.0\nOTHER := f\n"),
                       ["a", "b", "c", "d", "e"])
    }

    /// Swift, Python and shell files under Tests/ (not the fuzz corpus, nor this file's examples),
    /// make-fixtures.sh, the Makefile.
    private func scannedFiles() -> [URL] {
        var files = [root.appendingPathComponent("Makefile"), root.appendingPathComponent("Fixtures/make-fixtures.sh")]
        let tests = root.appendingPathComponent("Tests")
        let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.path.contains("/corpus/") || url.path.contains("/.build") || url.lastPathComponent == "ExternalToolsTests.swift" { continue }
            if ["swift", "py", "sh"].contains(url.pathExtension) { files.append(url) }
        }
        return files
    }

    private static func isInstalledProgram(_ word: String) -> Bool {
        (ExternalTools.systemDirectories + [ExternalTools.venvDirectory]).contains { directory in
            var isDirectory: ObjCBool = false
            let path = "\(directory)/\(word)"
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }
    }
}

/// Finds the programs a file may run, by the shapes a program takes in it.
enum ProgramScan {
    /// `"/usr/bin/NAME"`, `"/bin/NAME"`, `"/usr/sbin/NAME"`, `"/sbin/NAME"` in quotes: NAME.
    static func absolutePaths(in text: String) -> Set<String> {
        Set(matches(#"["'](?:/usr)?/s?bin/([A-Za-z0-9_.+-]+)["']"#, in: text))
    }

    /// Every quoted word that could be a program name, in order of appearance.
    static func literalWords(in text: String) -> [String] {
        var seen: Set<String> = []
        return matches(#"["']([A-Za-z][A-Za-z0-9_.+-]*)["']"#, in: text).filter { seen.insert($0).inserted }
    }

    /// The first word of each simple command of a shell text (after assignments and make's `@`/`-`);
    /// `recipesOnly`: only a Makefile's recipe lines (those starting with a tab).
    static func commandWords(in text: String, recipesOnly: Bool) -> [String] {
        var words: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if recipesOnly && !rawLine.hasPrefix("\t") { continue }
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            for segment in line.components(separatedBy: CharacterSet(charactersIn: "|;&(`")) {
                var fields = segment.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                while let first = fields.first, first.contains("=") || ["then", "do", "else", "if", "while", "until", "!", "$", "{", "}", "exec"].contains(first) {
                    fields.removeFirst()
                }
                guard var word = fields.first else { continue }
                while word.hasPrefix("@") || word.hasPrefix("-") { word.removeFirst() }
                if word.range(of: #"^[A-Za-z][A-Za-z0-9_.+-]*$"#, options: .regularExpression) != nil, !words.contains(word) { words.append(word) }
            }
        }
        return words
    }

    /// The packages named in a Makefile's `*_PACKAGES` variables (PyPI pins without their version).
    static func packageLists(in makefile: String) -> Set<String> {
        var result: Set<String> = []
        var continuing = false
        for line in makefile.split(separator: "\n") {
            var body = Substring(line)
            if !continuing {
                guard let range = line.range(of: #"^[A-Z_]*PACKAGES\s*[:+]?="#, options: .regularExpression) else { continue }
                body = line[range.upperBound...]
            }
            continuing = body.hasSuffix("\\")
            for word in body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\\" }) where !word.hasPrefix("$") {
                result.insert(String(word.split(separator: "=").first ?? word))
            }
        }
        return result
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }
}
