import Foundation
import TestSupport
import XCTest

/// The rules about the shape of the code, checked on the sources themselves: the core names
/// no feature, a feature target imports no other feature, the model layer is plain values, and no
/// file grows past 300 lines.
/// Pure file reading; fast.
final class ArchitectureTests: XCTestCase {
    /// The feature targets, each `Sources/<name>`.
    private static let featureTargets = ["BackendQueue", "BackendCache", "BackendTracks", "BackendAdaptive",
                                         "BackendWindow", "BackendThumbnails", "BackendResume", "BackendChapters",
                                         "BackendTags", "BackendMPRIS", "BackendOSD"]
    /// Types only features own, and each feature's event payload.
    private static let featureTypes = ["MediaCache", "PlayQueue", "MediaTrack", "Variant", "Thumbnail", "VideoWindow",
                                       "QueueEvent", "CacheEvent", "TracksEvent", "AdaptiveEvent", "WindowEvent", "ResumeStore",
                                       "QueueFeature", "CacheFeature", "TracksFeature", "AdaptiveFeature", "WindowFeature",
                                       "ThumbnailsFeature", "TagsFeature", "TagsEvent", "MediaTags", "CoverArt", "OSDFeature", "SubtitleStyle"]

    func testTheCoreNamesNoFeatureType() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources/BackendCore") {
            for (number, line) in try Self.codeLines(of: file) {
                for name in Self.featureTypes where Self.containsWord(name, in: line) {
                    found.append("\(file.lastPathComponent):\(number) names \(name)")
                }
            }
        }
        XCTAssertEqual(found, [], "the core must not name a feature's type")
    }

    func testFeatureTargetsImportTheCoreAndNoOtherFeature() throws {
        var found: [String] = []
        for target in Self.featureTargets {
            let files = try Self.swiftFiles(under: "Sources/\(target)")
            XCTAssertFalse(files.isEmpty, "Sources/\(target) has no Swift files")
            for file in files {
                for (number, line) in try Self.codeLines(of: file) {
                    for other in Self.featureTargets + ["Backend"] where other != target
                        && line.trimmingCharacters(in: .whitespaces).range(of: "^(@testable |@_exported )?import \(other)$", options: .regularExpression) != nil {
                        found.append("\(target)/\(file.lastPathComponent):\(number) imports \(other)")
                    }
                }
            }
        }
        XCTAssertEqual(found, [], "a feature depends on the core only")
    }

    func testTheModelLayerIsPlainValues() throws {
        let files = try Self.swiftFiles(under: "Sources/BackendCore/Model")
        XCTAssertFalse(files.isEmpty)
        let calling = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains("import CGStreamer") }.map(\.lastPathComponent)
        XCTAssertEqual(calling, [], "Model/ is the bottom layer: values only, no GStreamer calls")
    }

    func testNoSwiftFileIsOver300Lines() throws {
        var long: [String] = []
        for directory in ["Sources", "Tests"] {
            for file in try Self.swiftFiles(under: directory) {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
                if lines > 301 { long.append("\(file.path.replacingOccurrences(of: TestMedia.root.path + "/", with: "")): \(lines) lines") }
            }
        }
        XCTAssertEqual(long, [], "files over 300 lines")
    }

    /// HTTPServe is a utility (the web remote's and casting's server): it uses GLibSupport's
    /// plumbing only, never a feature or the umbrella.
    func testHTTPServeImportsNoFeature() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources/HTTPServe") {
            for (number, line) in try Self.codeLines(of: file) where line.hasPrefix("import Backend") && line != "import BackendCore" {
                found.append("\(file.lastPathComponent):\(number): \(line)")
            }
        }
        XCTAssertEqual(found, [], "HTTPServe knows no feature")
    }

    /// BackendControl (the command language: wire types, console grammar, mpv IPC, control
    /// socket) is a door above the umbrella, like the CLI: nothing below it imports it, and it
    /// imports nothing of the CLI's (the CLI target, ArgumentParser).
    func testBackendControlIsADoorAboveTheBackend() throws {
        let below = ["BackendCore", "Backend", "BackendCast", "HTTPServe", "DirectoryWalk"] + Self.featureTargets
        var found: [String] = []
        for target in below {
            for file in try Self.swiftFiles(under: "Sources/\(target)") {
                for (number, line) in try Self.codeLines(of: file) where Self.imports("BackendControl", line) {
                    found.append("\(target)/\(file.lastPathComponent):\(number) imports BackendControl")
                }
            }
        }
        let files = try Self.swiftFiles(under: "Sources/BackendControl")
        XCTAssertFalse(files.isEmpty, "Sources/BackendControl has no Swift files")
        for file in files {
            for (number, line) in try Self.codeLines(of: file) where Self.imports("gstplay", line) || Self.imports("ArgumentParser", line) {
                found.append("BackendControl/\(file.lastPathComponent):\(number): \(line)")
            }
        }
        XCTAssertEqual(found, [], "BackendControl sits between the Backend and the CLI")
    }

    /// Features observe: no `PlayerFeature` requirement returns a value (what changes the core's
    /// behaviour is registered at a named extension point, in an explicit order).
    func testPlayerFeatureIsNotificationsOnly() throws {
        let file = TestMedia.root.appendingPathComponent("Sources/BackendCore/Feature/PlayerFeature.swift")
        let lines = try Self.codeLines(of: file)
        let body = lines.drop { !$0.1.contains("protocol PlayerFeature") }.prefix { !$0.1.hasPrefix("}") }
        let requirements = body.filter { $0.1.contains("func ") }
        XCTAssertGreaterThan(requirements.count, 5, "the protocol was found")
        let answering = requirements.filter { $0.1.contains("->") }.map { "PlayerFeature.swift:\($0.0): \($0.1)" }
        XCTAssertEqual(answering, [], "a notification returns nothing")
    }

    /// `FeatureContext` stays narrow: at most 20 public members of its own (its capability groups
    /// count as one each), no `extension FeatureContext` outside its files, and no raw `playbin`
    /// at its top level.
    func testFeatureContextHasAtMostTwentyMembers() throws {
        var members: [String] = []
        for file in try Self.swiftFiles(under: "Sources") where !file.path.contains("/.build") {
            let lines = try Self.codeLines(of: file)
            var inside = false
            var depth = 0
            for (number, line) in lines {
                if depth == 0, line.range(of: "(class|extension) FeatureContext\\b", options: .regularExpression) != nil {
                    inside = true
                    XCTAssertTrue(file.lastPathComponent.hasPrefix("FeatureContext"), "\(file.lastPathComponent):\(number) extends FeatureContext")
                }
                let publicExtension = inside && depth == 1 && lines.contains { $0.1.contains("public extension FeatureContext") }
                if inside, depth == 1, line.range(of: "^\\s*(public |@discardableResult public )?(static )?(func|var|let) ", options: .regularExpression) != nil,
                   line.contains("public") || publicExtension {
                    members.append("\(file.lastPathComponent):\(number): \(line.trimmingCharacters(in: .whitespaces))")
                }
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
                if depth == 0 { inside = false }
            }
        }
        XCTAssertLessThanOrEqual(members.count, 20, "FeatureContext's members:\n\(members.joined(separator: "\n"))")
        XCTAssertFalse(members.contains { $0.contains("var playbin") }, "no raw playbin at the context's top level")
    }

    /// No feature reaches the raw `playbin`: `FeaturePipeline` (FeatureContext+Pipeline.swift and
    /// its FeaturePipeline+*.swift extensions) has no public property named `playbin`, and no
    /// public property or method gives out a `GstElement` other than a sink (a feature asks for
    /// what it needs by a named operation).
    func testFeaturePipelineHidesPlaybin() throws {
        let folder = TestMedia.root.appendingPathComponent("Sources/BackendCore/Feature")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
            $0.lastPathComponent == "FeatureContext+Pipeline.swift" || $0.lastPathComponent.hasPrefix("FeaturePipeline+")
        }
        XCTAssertGreaterThanOrEqual(files.count, 3, "the files were found")
        var exposed: [String] = []
        for file in files {
            let lines = try Self.codeLines(of: file)
            let publicExtension = lines.contains { $0.1.contains("public extension FeaturePipeline") }
            for (number, line) in lines where line.contains("public") || publicExtension {
                let property = line.range(of: "^\\s*(public )?(static )?(var|let) \\w+", options: .regularExpression)
                let name = property.map { line[$0].split(separator: " ").last.map(String.init) ?? "" }
                let givesElement = line.contains("-> UnsafeMutablePointer<GstElement>") || property != nil && line.contains(": UnsafeMutablePointer<GstElement>")
                if name == "playbin" || givesElement && !(name ?? "").hasSuffix("Sink") {
                    exposed.append("\(file.lastPathComponent):\(number): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(exposed, [], "raw playbin reachable from a feature")
    }

    // MARK: Helpers

    private static func imports(_ module: String, _ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).range(of: "^(@testable |@_exported |@preconcurrency )?import \(module)$", options: .regularExpression) != nil
    }

    private static func swiftFiles(under relative: String) throws -> [URL] {
        let root = TestMedia.root.appendingPathComponent(relative)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/.build") }
    }

    /// Numbered lines with comments removed (`//` to the end of the line; doc comments included).
    private static func codeLines(of file: URL) throws -> [(Int, String)] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
            return code.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (index + 1, code)
        }
    }

    private static func containsWord(_ word: String, in line: String) -> Bool {
        line.range(of: "\\b\(word)\\b", options: .regularExpression) != nil
    }
}
