// Fuzz targets `hls` and `dash`: adaptive-stream manifests as the Backend reads them
// (Sources/BackendAdaptive: MasterPlaylist, DashManifest with GLib's GMarkup, AdaptiveManifest), then the ABR
// policy on the ladder they give (AdaptivePolicy: initial variant, selection, connection speed).
//
// Invariants:
//  1. A master result is non-empty, sorted by bandwidth (then height), indices 0, 1, 2…, and
//     every variant has a URI.
//  2. `AdaptiveManifest.parse` (which picks HLS or DASH by the first bytes) gives the same result
//     as the HLS parser whenever that recognises the text, and as the DASH parser whenever that
//     recognises a text that starts with `<`.
//  3. The policy on the parsed ladder picks an index inside it, for no estimate and for
//     estimates around each variant's bandwidth; the connection speed never traps.
//  4. Parsing is stable: the same input and base URI give the same result twice.

@testable import BackendAdaptive
@testable import BackendCore
import Backend

/// The `hls` and `dash` fuzz targets (invariants in the header). Pure; any thread.
enum ManifestFuzz {
    private static let base = "http://127.0.0.1:8080/stream/master.m3u8?token=1"

    static func runHLS(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let kind = MasterPlaylist.parse(text, baseURI: base)
        try checkStable(kind, MasterPlaylist.parse(text, baseURI: base), text)
        try checkLadder(kind, text, format: "hls")
        if kind != .invalid {
            try check(AdaptiveManifest.parse(text, baseURI: base) == kind, "AdaptiveManifest disagrees with MasterPlaylist on \(text.debugDescription)")
        }
    }

    static func runDASH(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let kind = DashManifest.parse(text, baseURI: base)
        try checkStable(kind, DashManifest.parse(text, baseURI: base), text)
        try checkLadder(kind, text, format: "dash")
        let head = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if kind != .invalid, head.hasPrefix("<") {
            try check(AdaptiveManifest.parse(text, baseURI: base) == kind, "AdaptiveManifest disagrees with DashManifest on \(text.debugDescription)")
        }
    }

    private static func checkStable(_ a: MasterPlaylist.Kind, _ b: MasterPlaylist.Kind, _ text: String) throws(InvariantViolation) {
        try check(a == b, "two parses of the same text differ: \(text.debugDescription)")
    }

    private static func checkLadder(_ kind: MasterPlaylist.Kind, _ text: String, format: String) throws(InvariantViolation) {
        guard case .master(let variants) = kind else { return }
        try check(!variants.isEmpty, "\(format): an empty master ladder")
        for (position, variant) in variants.enumerated() {
            try check(variant.index == position, "\(format): variant \(position) has index \(variant.index)")
            try check(!variant.uri.isEmpty || text.isEmpty, "\(format): variant \(position) has no URI in \(text.debugDescription)")
            if position > 0 {
                let previous = variants[position - 1]
                try check((previous.bandwidth, previous.height ?? 0) <= (variant.bandwidth, variant.height ?? 0),
                          "\(format): the ladder is not sorted at \(position)")
            }
        }
        let policy = AdaptivePolicy()
        if let initial = policy.initialVariant(variants) {
            try check(variants.indices.contains(initial), "\(format): initial variant \(initial) outside 0..<\(variants.count)")
        }
        var estimates: [Double?] = [nil, 0, 1e18]
        for variant in variants.prefix(8) { estimates += [Double(variant.bandwidth), Double(variant.bandwidth) * 1.5] }
        for estimate in estimates {
            for current in [nil, 0, variants.count - 1] as [Int?] {
                if let (index, _) = policy.select(variants, current: current, estimate: estimate) {
                    try check(variants.indices.contains(index), "\(format): selected \(index) outside 0..<\(variants.count)")
                    _ = AdaptivePolicy.connectionSpeed(selecting: index, of: variants)
                }
            }
        }
    }
}
