import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

/// What a renderer's `LastChange` event said (instance 0), read by GUPnP-AV's
/// `GUPnPLastChangeParser`; nil fields were not in this event.
public struct LastChange: Sendable, Hashable {
    /// `TransportState` (AVTransport).
    public var transportState: TransportState?
    /// `CurrentTrackURI` (AVTransport).
    public var trackURI: String?
    /// `CurrentTrackDuration` in seconds (AVTransport).
    public var duration: Double?
    /// `Volume` of the `Master` channel, 0…100 (RenderingControl).
    public var volume: Int?
    /// `Mute` (RenderingControl).
    public var muted: Bool?

    /// A change report.
    public init(transportState: TransportState? = nil, trackURI: String? = nil, duration: Double? = nil,
                volume: Int? = nil, muted: Bool? = nil) {
        self.transportState = transportState
        self.trackURI = trackURI
        self.duration = duration
        self.volume = volume
        self.muted = muted
    }

    static let variables = ["TransportState", "CurrentTrackURI", "CurrentTrackDuration", "Volume", "Mute"]

    /// Parses a `LastChange` document (`gupnp_last_change_parser_parse_last_change_valist`, every
    /// variable read as a string); nil when it does not parse.
    static func parse(_ xml: String) -> LastChange? {
        let parser = gupnp_last_change_parser_new()!
        defer { g_object_unref(parser) }
        let names = variables.map { strdup($0)! }
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>.allocate(capacity: names.count)
        slots.initialize(repeating: nil, count: names.count)
        defer {
            for index in names.indices { g_free(slots[index]); free(names[index]) }
            slots.deallocate()
        }
        var arguments: [CVarArg] = []
        for index in names.indices { arguments += [names[index], GLibValues.stringType, slots + index] }
        arguments.append(Int(0))   // the NULL that ends the list
        var error: UnsafeMutablePointer<GError>?
        let parsed = withVaList(arguments) { gupnp_last_change_parser_parse_last_change_valist(parser, 0, xml, &error, $0) }
        if let error { g_error_free(error) }
        guard parsed != 0 else { return nil }
        func value(_ index: Int) -> String? { slots[index].map { String(cString: $0) } }
        return LastChange(transportState: value(0).map(TransportState.init), trackURI: value(1),
                          duration: UPnPTime.parse(value(2)), volume: value(3).flatMap { Int($0) },
                          muted: value(4).map { $0 == "1" || $0.lowercased() == "true" })
    }
}

/// A GENA subscription to `LastChange` on one service (`gupnp_service_proxy_add_notify_full`,
/// `gupnp_service_proxy_set_subscribed`). A subscription GUPnP reports lost (`subscription-lost`:
/// the SUBSCRIBE failed or a renewal did) is tried again, up to ``retries`` times, 300 ms apart.
/// **Thread:** the loop thread; `handler` runs there.
final class LastChangeSubscription {
    /// How often a lost subscription is renewed before giving up.
    static let retries = 5

    private let service: UnsafeMutablePointer<GUPnPServiceProxy>
    private var box: UnsafeMutableRawPointer?
    private var lostHandler: gulong = 0
    private var retryTimer: TimerSource?
    private(set) var lostCount = 0

    private static let notify: GUPnPServiceProxyNotifyCallback = { _, _, value, data in
        guard let value, let data, let text = g_value_get_string(value) else { return }
        guard let change = LastChange.parse(String(cString: text)) else { return }
        CallbackBox<(LastChange) -> Void>.from(data).value(change)
    }

    init(service: UnsafeMutablePointer<GUPnPServiceProxy>, handler: @escaping (LastChange) -> Void) {
        self.service = service
        g_object_ref(service)
        let box = CallbackBox(handler).retainedPointer
        self.box = box
        gupnp_service_proxy_add_notify_full(service, "LastChange", GLibValues.stringType, Self.notify, box, callbackBoxRelease)
        let owner = CallbackBox(WeakSubscription(subscription: self))
        lostHandler = CGStreamer_signal_connect_2(service, "subscription-lost", { _, error, data in
            let subscription = CallbackBox<WeakSubscription>.from(data!).value.subscription
            subscription?.lost(error?.assumingMemoryBound(to: GError.self))
        }, owner.retainedPointer, callbackBoxClosureRelease)
        gupnp_service_proxy_set_subscribed(service, 1)
    }

    /// Unsubscribes and drops the handler (its box released by GUPnP's destroy notify). Idempotent.
    func cancel() {
        guard let box else { return }
        self.box = nil
        retryTimer?.destroy()
        retryTimer = nil
        g_signal_handler_disconnect(service, lostHandler)
        gupnp_service_proxy_remove_notify(service, "LastChange", Self.notify, box)
        gupnp_service_proxy_set_subscribed(service, 0)
    }

    private func lost(_: UnsafeMutablePointer<GError>?) {
        lostCount += 1
        guard box != nil, lostCount <= Self.retries, retryTimer == nil else { return }
        retryTimer = TimerSource.onThreadDefaultContext(every: .milliseconds(300)) { [weak self] in
            guard let self else { return false }
            self.retryTimer = nil
            gupnp_service_proxy_set_subscribed(self.service, 0)
            gupnp_service_proxy_set_subscribed(self.service, 1)
            return false
        }
    }

    deinit {
        cancel()
        g_object_unref(service)
    }

    /// What the `subscription-lost` handler's box holds.
    private struct WeakSubscription {
        weak var subscription: LastChangeSubscription?
    }
}
