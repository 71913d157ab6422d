import Glibc

/// Runs libFuzzer (`LLVMFuzzerRunDriver`, libFuzzer's documented entry point for a program with
/// its own `main`) on one ``FuzzTarget``, in this test process. The symbol exists only in the
/// `make fuzz` build, which links `libclang_rt.fuzzer_no_main` and exports the symbol; it is
/// looked up with `dlsym`, so the ordinary build links without it. libFuzzer ends the process
/// itself (`exit(0)` when done, a crash report and non-zero status on a finding).
///
/// **Thread:** the calling (test) thread; libFuzzer calls the target on it.
enum LibFuzzer {
    private typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    private typealias RunDriver = @convention(c) (UnsafeMutablePointer<CInt>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, Callback) -> CInt

    /// The target libFuzzer's callback runs (set once before the driver starts).
    nonisolated(unsafe) private static var current: FuzzTarget?

    /// Whether this binary was built by `make fuzz` (libFuzzer linked in).
    static var isLinked: Bool { driver != nil }

    private static var driver: RunDriver? {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, "LLVMFuzzerRunDriver") else { return nil }
        return unsafeBitCast(symbol, to: RunDriver.self)
    }

    /// Hands `target` to libFuzzer with `arguments` (libFuzzer flags and corpus directories).
    /// Returns only when libFuzzer does (it normally exits the process).
    static func run(_ target: FuzzTarget, arguments: [String]) -> CInt {
        guard let driver else { return -1 }
        current = target
        // argv[0] is what libFuzzer runs for its child processes (`-merge=1`): Tests/Fuzz/fuzz-self.sh.
        let program = getenv("GSTPLAY_FUZZ_SELF").map { String(cString: $0) } ?? "gstplay-fuzz-\(target.name)"
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        var argc = CInt(argv.count - 1)
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            var base = buffer.baseAddress
            return driver(&argc, &base) { data, size in
                let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
                do {
                    try LibFuzzer.current?.run(bytes)
                } catch {
                    let line = "INVARIANT VIOLATED: \(error)\n"
                    _ = line.withCString { write(2, $0, strlen($0)) }
                    abort() // libFuzzer reports it as a crash and saves the input
                }
                return 0
            }
        }
    }
}
