import Foundation
import Glibc

/// Bytes in use on glibc's heap, measured with `malloc_info` (looked up with `dlsym`: Swift's
/// Glibc module has no `<malloc.h>`): every arena's bytes from the system, less its free chunks
/// (fast and regular bins), plus mmap'd chunks — what `mallinfo2` calls `uordblks + hblkhd`.
/// For "how much does this structure hold" measurements: take it before and after. Any thread
/// (other threads' allocations count too).
public enum HeapUsage {
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    /// The bytes in use now; nil when `malloc_info` is not available.
    public static func bytesInUse() -> Int? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
        let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        _ = mallocInfo(0, stream)
        fclose(stream)
        guard let buffer else { return nil }
        defer { free(buffer) }
        // The totals over every arena are the last lines: <total type="fast|rest|mmap" … size="N"/>, <system type="current" size="N"/>.
        var totals: [String: Int] = [:]
        for line in String(cString: buffer).split(separator: "\n") where line.hasPrefix("<total ") || line.hasPrefix("<system ") {
            guard let type = value(of: "type", in: line), let bytes = value(of: "size", in: line).flatMap(Int.init) else { continue }
            totals[(line.hasPrefix("<total") ? "total-" : "system-") + type] = bytes
        }
        guard let system = totals["system-current"] else { return nil }
        return system - (totals["total-fast"] ?? 0) - (totals["total-rest"] ?? 0) + (totals["total-mmap"] ?? 0)
    }

    private static func value(of attribute: String, in line: Substring) -> String? {
        guard let start = line.range(of: attribute + "=\"") else { return nil }
        let rest = line[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
