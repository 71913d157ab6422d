// The fuzz targets: one per parser of outside text, each a function of raw bytes that throws
// an `InvariantViolation` when a property that must hold for every input does not. Pure; any
// thread. `make test` replays the committed corpus through them (FuzzCorpusTests), `make fuzz`
// hands them to libFuzzer (LibFuzzer.swift).

/// A property of a parser that an input broke: the message says which and with what.
struct InvariantViolation: Error, CustomStringConvertible {
    var description: String
}

/// Throws an ``InvariantViolation`` with `message` unless `condition` holds.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) throws(InvariantViolation) {
    if !condition() { throw InvariantViolation(description: message()) }
}

/// One fuzz target: the name `make fuzz FUZZ_TARGET=…` selects and the corpus directory
/// (Tests/Fuzz/corpus/<name>) holds seeds for, the input size libFuzzer may grow to, and the check.
struct FuzzTarget: Sendable {
    var name: String
    var maxLength: Int
    var run: @Sendable ([UInt8]) throws(InvariantViolation) -> Void

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "console", maxLength: 1024, run: ConsoleFuzz.run),
        FuzzTarget(name: "playlist", maxLength: 4096, run: PlaylistFuzz.run),
        FuzzTarget(name: "subtitle", maxLength: 2048, run: SubtitleFuzz.run),
        FuzzTarget(name: "hls", maxLength: 4096, run: ManifestFuzz.runHLS),
        FuzzTarget(name: "dash", maxLength: 4096, run: ManifestFuzz.runDASH),
        FuzzTarget(name: "arguments", maxLength: 512, run: ArgumentFuzz.run),
        FuzzTarget(name: "mpv", maxLength: 1024, run: MpvFuzz.run),
        FuzzTarget(name: "config", maxLength: 2048, run: ConfigFuzz.run),
        FuzzTarget(name: "cache-index", maxLength: 4096, run: StateFileFuzz.runCacheIndex),
        FuzzTarget(name: "resume", maxLength: 4096, run: StateFileFuzz.runResume),
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
