import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The uncommitted HLS ladder and its DASH manifest (`Fixtures/make-fixtures.sh --hls .build-fixtures`),
/// generated on first use when `make test` has not made it yet (~15–20 s once). Any thread.
public enum HLSFixture {
    static let buildDirectory = TestMedia.root.appendingPathComponent(".build-fixtures")
    private static let lock = NSLock()

    /// The ladder's directory (`…/.build-fixtures/hls`), generating it when missing; throws
    /// when the script fails.
    public static func ensure() throws -> String {
        lock.lock(); defer { lock.unlock() }
        let directory = buildDirectory.appendingPathComponent("hls")
        let master = directory.appendingPathComponent("master.m3u8").path
        let dash = directory.appendingPathComponent("manifest.mpd").path
        if FileManager.default.fileExists(atPath: master), FileManager.default.fileExists(atPath: dash) { return directory.path }
        let script = Process()
        script.executableURL = TestMedia.root.appendingPathComponent("Fixtures/make-fixtures.sh")
        script.arguments = ["--hls", buildDirectory.path]
        script.standardOutput = FileHandle.nullDevice
        try script.run()
        script.waitUntilExit()
        guard script.terminationStatus == 0, FileManager.default.fileExists(atPath: master), FileManager.default.fileExists(atPath: dash) else {
            throw NSError(domain: "HLSFixture", code: 1, userInfo: [NSLocalizedDescriptionKey: "make-fixtures.sh --hls failed"])
        }
        return directory.path
    }
}

/// The adaptive-streaming controls of `http_test_server.py` (`/control/throttle?match=`,
/// `/control/fail`, the `/hls` fields of `/log`). Any thread.
extension HTTPTestServer {
    /// One `/hls` request from the log.
    public struct HLSRequest: Decodable, Sendable {
        public var path: String
        public var status: Int?
        public var bytes: Int?
        public var start: Double?
        public var end: Double?

        /// `240p` for `/hls/vod/240p/segment00003.ts`.
        public var variant: String? {
            let parts = path.split(separator: "/")
            return parts.count >= 4 ? String(parts[parts.count - 2]) : nil
        }
        public var isSegment: Bool { path.hasSuffix(".ts") }
    }

    /// Paces `/hls` responses whose path contains `match` to `bytesPerSecond` (0 lifts it),
    /// from the next chunk on (also mid-transfer).
    public func throttle(matching match: String, bytesPerSecond: Int) { hlsControl("throttle?match=\(match)&rate=\(bytesPerSecond)") }

    /// The next `count` `/hls` requests (nil: all) whose path contains `match` get `status`.
    public func fail(matching match: String, status: Int = 404, count: Int? = nil) {
        hlsControl("fail?match=\(match)&status=\(status)" + (count.map { "&count=\($0)" } ?? ""))
    }

    /// The `/hls` requests so far, in arrival order.
    public func hlsRequests() -> [HLSRequest] {
        guard let data = try? Data(contentsOf: URL(string: url("/log"))!),
              let all = try? JSONDecoder().decode([HLSRequest].self, from: data) else { return [] }
        return all.filter { $0.path.hasPrefix("/hls/") }
    }

    /// Segment requests answered 200, in order.
    public func segments() -> [HLSRequest] { hlsRequests().filter { $0.isSegment && $0.status == 200 } }

    private func hlsControl(_ query: String) {
        _ = try? Data(contentsOf: URL(string: url("/control/\(query)"))!)
    }
}
