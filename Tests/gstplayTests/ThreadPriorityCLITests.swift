import Foundation
import Glibc
import ProcessProbe
import TestSupport
import XCTest

/// The player's threads run at the process's own priority. The CLI's task once ran at
/// user-initiated priority, which libdispatch maps to nice -2 where it may (as root): its threads
/// took the cores from `gst_init`, and the player's loop thread and every GStreamer streaming
/// thread started from them inherited -2.
final class ThreadPriorityCLITests: XCTestCase {
    /// Each thread's name and nice value (`/proc/PID/task/TID/stat`: the name in parentheses,
    /// nice the 17th field after it).
    private func threads(of pid: Int32) throws -> [(name: String, nice: Int)] {
        let ids = try XCTUnwrap(ProcFS.entries("/proc/\(pid)/task"))
        return ids.compactMap { id in
            guard let stat = ProcFS.read("/proc/\(pid)/task/\(id)/stat"),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (String(stat[stat.index(after: open)..<close]), nice)
        }
    }

    func testTheLoopAndStreamingThreadsRunAtTheProcessPriority() throws {
        // Only root may raise a thread's priority: elsewhere the old code could not show -2 either.
        try XCTSkipUnless(geteuid() == 0, "only root may lower a nice value: the regression cannot show otherwise")
        let child = try GstplayProcess(["--json", "--video-sink", "fakesink sync=true", "--audio-sink", "fakesink sync=true",
                                        TestMedia.h264]).started()
        defer { child.send("quit"); _ = child.waitForExit() }
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout + child.stderr)
        let all = try threads(of: child.process.processIdentifier)
        let main = try XCTUnwrap(all.first { $0.name.hasPrefix("gstplay") && !$0.name.contains("loop") }, "\(all)")
        let player = all.filter { $0.name == "gstplay-loop" || $0.name.contains(":src") || $0.name.contains(":sink") }
        XCTAssertTrue(player.contains { $0.name == "gstplay-loop" }, "\(all)")
        XCTAssertGreaterThanOrEqual(player.count, 3, "the loop thread and streaming threads: \(all)")
        for thread in player { XCTAssertEqual(thread.nice, main.nice, "\(thread.name): \(all)") }
    }
}
