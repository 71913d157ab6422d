import GLibSupport
/// Every GLib timer the engine runs, in one place, so that one call removes them.
///
/// The position and statistics timers live as long as the player; the seek timer and the
/// open watchdog belong to the current media. **Thread:** loop thread only.
final class EngineTimers {
    /// Position reports while playing (``PlayerConfiguration/positionInterval``).
    var position: TimerSource?
    /// Periodic statistics (``PlayerConfiguration/statisticsInterval``), nil when off.
    var statistics: TimerSource?
    /// Fires a throttled seek (``SeekThrottle``).
    var seek: TimerSource?
    /// Fails a load that does not preroll in time.
    var openWatchdog: TimerSource?
    /// Re-asks a download-mode buffering element while the player holds for it.
    var bufferingCheck: TimerSource?
    /// Fails a live source that sends no data within the network timeout (``Engine/watchLiveSource()``).
    var liveData: TimerSource?
    /// Looks for the frame a forward step prerolls (``Engine/frameStepDone()``).
    var frameStep: TimerSource?
    /// Not a timer: the connection that names a network failure (``ConnectionProbe``); cancelled
    /// with the media's timers so that a later load never hears from it.
    var connectionProbe: ConnectionProbe?

    /// Removes the timers that belong to the current media (seek, open watchdog,
    /// buffering check, live-data watchdog) and cancels the connection probe.
    func cancelMediaTimers() {
        bufferingCheck?.destroy(); bufferingCheck = nil
        seek?.destroy(); seek = nil
        liveData?.destroy(); liveData = nil
        frameStep?.destroy(); frameStep = nil
        connectionProbe?.cancel(); connectionProbe = nil
        openWatchdog?.destroy(); openWatchdog = nil
    }

    /// Removes every timer. Idempotent.
    func cancelAll() {
        cancelMediaTimers()
        position?.destroy(); position = nil
        statistics?.destroy(); statistics = nil
    }
}
