import CGStreamer
import Glibc

/// The allocator's settings for a player process (`mallopt`), set before anything allocates much.
///
/// - **Heap growth in 1 MiB steps** (`M_TOP_PAD`, glibc's default 128 KiB): each of GStreamer's
///   streaming threads allocates from an arena of its own, and glibc grows such an arena with one
///   `mprotect` per step — dozens per thread while a pipeline starts, each one taking the process's
///   memory-map lock that every other thread's page faults wait on. The step is address space, not
///   memory: pages become resident when they are written.
/// - **A fixed mmap threshold of 128 KiB** (`M_MMAP_THRESHOLD`, glibc's default value, which glibc
///   otherwise raises to the size of each large block freed, up to 32 MiB): a block above it is its
///   own mapping and goes back to the kernel when freed, instead of staying resident in an arena.
///   Setting `M_TOP_PAD` alone fixes the threshold too (glibc turns its adjustment off); naming it
///   here says so.
///
/// Measured on a headless 0.2 s play (docs/BENCHMARKS.md): start-up CPU and peak RSS both lower.
/// The executable's choice, not the library's: an app embedding the Backend keeps its own.
///
/// **Thread:** the main thread, first thing in `main`.
enum MallocTuning {
    /// Heap growth step (`M_TOP_PAD`).
    static let heapGrowthStep: Int32 = 1 << 20
    /// Blocks above this many bytes are mapped on their own (`M_MMAP_THRESHOLD`).
    static let ownMappingThreshold: Int32 = 128 << 10

    /// Applies both settings (`mallopt`); a setting glibc refuses leaves its default.
    static func apply() {
        _ = mallopt(M_TOP_PAD, heapGrowthStep)
        _ = mallopt(M_MMAP_THRESHOLD, ownMappingThreshold)
    }
}
