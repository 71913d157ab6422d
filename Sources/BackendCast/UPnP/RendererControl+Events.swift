import BackendCore
import CGUPnP

/// LastChange events (GENA). **Thread:** the loop thread; handlers run there.
public extension RendererControl {
    /// Subscribes (GENA) to `LastChange` of `AVTransport` and, where there is one, `RenderingControl`:
    /// `handler` gets each change parsed (GUPnP-AV's `GUPnPLastChangeParser`) on the loop thread.
    /// Replaces an earlier subscription; ends with ``unsubscribeLastChange()``, release, or when
    /// the renderer goes. Renderers that send no events simply never call `handler`, except for
    /// the transport state: one not heard within ``eventGrace`` of subscribing or of a successful
    /// Play, Pause, Stop or SetAVTransportURI, or of a SUBSCRIBE GUPnP sends again by itself, is
    /// asked (`GetTransportInfo`, `GetPositionInfo`) and handed to `handler` as a change with the
    /// transport state, track URI and duration (GUPnP 1.6 drops events, see RendererControl+Confirm.swift).
    func subscribeLastChange(_ handler: @escaping (LastChange) -> Void) {
        unsubscribeLastChange()
        guard !isGone else { return }
        let services = [avTransport] + (renderingControl.map { [$0] } ?? [])
        lastChangeHandler = handler
        let heard: (LastChange) -> Void = { [weak self] change in
            self?.heard(change)
            handler(change)
        }
        // Watching before subscribing: the first SUBSCRIBE is queued by set_subscribed.
        subscribeWatch = SubscribeWatch(service: avTransport) { [weak self] in
            guard let self else { return }
            self.expectTransportEvent(after: self.transportEvents)
        }
        lastChange = services.map { LastChangeSubscription(service: $0, handler: heard) }
        expectTransportEvent(after: transportEvents)
    }

    /// Ends the `LastChange` subscription (`gupnp_service_proxy_set_subscribed` false). Idempotent.
    func unsubscribeLastChange() {
        for subscription in lastChange { subscription.cancel() }
        lastChange = []
        lastChangeHandler = nil
        subscribeWatch?.cancel()
        subscribeWatch = nil
        lateEventTimer?.destroy()
        lateEventTimer = nil
    }
}
