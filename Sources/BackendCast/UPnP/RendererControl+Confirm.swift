import BackendCore
import GLibSupport

/// Transport state events that do not come, confirmed by asking. GUPnP 1.6's service proxy
/// drops a GENA NOTIFY that arrives before it has read the answer to its SUBSCRIBE (no SID yet:
/// answered 200 and discarded), and at the next NOTIFY, whose SEQ is then higher than expected,
/// unsubscribes and subscribes again, dropping that one too; the new subscription's initial event
/// can race the same way. gmediarender (libupnp) sends its initial event about 0.2 ms after the
/// SUBSCRIBE answer (packet capture, 2026-11-25), so on a busy loop thread the state it reports
/// after Play or Pause can be lost until the next change. A transport state not heard within
/// ``RendererControl/eventGrace`` of subscribing or of a successful Play, Pause, Stop or
/// SetAVTransportURI, or of any SUBSCRIBE GUPnP sends (``SubscribeWatch``: each owes an initial
/// event, and GUPnP resubscribes right after a lost one), is therefore asked once
/// (`GetTransportInfo`, `GetPositionInfo`) and handed to the `LastChange` handler as a change
/// with the transport state, track URI and duration.
///
/// **Thread:** the loop thread (GUPnP's callbacks and the timer run there).
extension RendererControl {
    /// An AVTransport command after which the renderer reports a transport state.
    func transportCommand(_ action: String, _ arguments: [(String, String)] = [],
                          completion: @escaping (Result<Void, CastError>) -> Void) {
        let heardBefore = transportEvents
        command(avTransport, action, arguments) { [weak self] result in
            if case .success = result { self?.expectTransportEvent(after: heardBefore) }
            completion(result)
        }
    }

    /// While subscribed, asks `GetTransportInfo` after ``eventGrace`` unless a settled transport
    /// state event arrives first, or arrived already since ``transportEvents`` was `heardBefore`.
    func expectTransportEvent(after heardBefore: Int) {
        guard lastChangeHandler != nil, !isGone, transportEvents == heardBefore else { return }
        lateEventTimer?.destroy()
        lateEventTimer = TimerSource.onThreadDefaultContext(every: eventGrace) { [weak self] in
            guard let self else { return false }
            self.lateEventTimer = nil
            self.confirmTransportState()
            return false
        }
    }

    /// Every change the subscription delivers: a settled transport state cancels the wait.
    func heard(_ change: LastChange) {
        guard let state = change.transportState, state != .transitioning else { return }
        transportEvents += 1
        lateEventTimer?.destroy()
        lateEventTimer = nil
    }

    /// `GetTransportInfo` then `GetPositionInfo`: the AVTransport part of an initial event.
    private func confirmTransportState() {
        confirmations += 1
        transportInfo { [weak self] result in
            guard let self, self.lastChangeHandler != nil, case .success(let info) = result else { return }
            self.positionInfo { [weak self] position in
                guard let handler = self?.lastChangeHandler else { return }
                let track = try? position.get()
                handler(LastChange(transportState: info.state, trackURI: track?.trackURI, duration: track?.duration))
            }
        }
    }
}
