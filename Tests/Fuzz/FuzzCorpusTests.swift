import Foundation
import XCTest

/// The fuzz targets as tests. In `make test`: every committed corpus file goes through its
/// target, which must hold every invariant (a regression test for each input the fuzzer ever
/// kept, and proof that the targets still compile against the product's modules). In
/// `make fuzz` (`GSTPLAY_FUZZ_TARGET` set, libFuzzer linked): ``testLibFuzzer`` runs libFuzzer on
/// the named target with the flags in `GSTPLAY_FUZZ_ARGS`.
final class FuzzCorpusTests: XCTestCase {
    /// Tests/Fuzz/corpus, read from the source tree.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("corpus")

    func testEveryTargetHasSeeds() throws {
        for target in FuzzTarget.all {
            let files = try seeds(of: target)
            XCTAssertFalse(files.isEmpty, "no seeds in corpus/\(target.name)")
        }
    }

    func testTheCorpusHoldsEveryInvariant() throws {
        defer {
            PlaylistFuzz.removeScratchDirectory()
            StateFileFuzz.removeScratchDirectory()
        }
        for target in FuzzTarget.all {
            for file in try seeds(of: target) {
                let bytes = [UInt8](try Data(contentsOf: file))
                XCTAssertLessThanOrEqual(bytes.count, target.maxLength * 4, "\(target.name)/\(file.lastPathComponent) is large for a seed")
                do { try target.run(bytes) } catch {
                    XCTFail("\(target.name)/\(file.lastPathComponent): \(error.description)")
                }
            }
        }
    }

    /// The invariants bite: inputs that break each kind of property are reported, not passed.
    func testAViolationIsReported() {
        XCTAssertThrowsError(try check(1 + 1 == 3, "arithmetic")) { error in
            XCTAssertEqual((error as? InvariantViolation)?.description, "arithmetic")
        }
        XCTAssertNil(FuzzTarget.named("no-such-target"))
        XCTAssertEqual(Set(FuzzTarget.all.map(\.name)).count, FuzzTarget.all.count)
    }

    func testLibFuzzer() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let name = environment["GSTPLAY_FUZZ_TARGET"] else {
            throw XCTSkip("libFuzzer runs only under `make fuzz` (GSTPLAY_FUZZ_TARGET unset)")
        }
        let target = try XCTUnwrap(FuzzTarget.named(name), "unknown fuzz target '\(name)'; known: \(FuzzTarget.all.map(\.name))")
        XCTAssertTrue(LibFuzzer.isLinked, "libFuzzer is not linked into this build: use `make fuzz`")
        let arguments = (environment["GSTPLAY_FUZZ_ARGS"] ?? "").split(separator: " ").map(String.init)
        let status = LibFuzzer.run(target, arguments: ["-max_len=\(target.maxLength)"] + arguments)
        XCTAssertEqual(status, 0, "libFuzzer returned \(status)")
    }

    private func seeds(of target: FuzzTarget) throws -> [URL] {
        let directory = Self.corpus.appendingPathComponent(target.name)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
