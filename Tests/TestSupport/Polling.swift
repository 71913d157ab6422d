import Foundation

/// Checks `condition` every `interval` until it holds or `timeout` passes; returns whether it
/// held. Only for facts that no event announces (thread and descriptor counts in `/proc`, a
/// pipeline's GStreamer state, a child's scheduler state); wait on events where there are some.
public func eventually(timeout: Duration = .seconds(5), interval: Duration = .milliseconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return condition() }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
    return true
}
