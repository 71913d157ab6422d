import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

/// Drives one renderer found by ``RendererDiscovery`` (``RendererDiscovery/makeControl(for:timeout:)``):
/// its `AVTransport:1` (URI, play, pause, stop, seek, position, state) and `RenderingControl:1`
/// (volume, mute) services, instance 0, through GUPnP's `GUPnPServiceProxy` SOAP calls.
///
/// Every call has a deadline (``timeout``, 5 s by default): a request still unanswered then is
/// cancelled (`GCancellable`) and completes with ``CastError/timeout``. A SOAP fault completes
/// with ``CastError/renderer(code:description:)``; a refused connection, or a renderer that
/// left the discovery's list, with ``CastError/gone``.
///
/// **Thread:** the player's loop thread only (GUPnP runs on its default `GMainContext`); every
/// completion runs there, once, from GUPnP's callbacks (not a player handler: a feature publishes
/// through `FeatureContext.runOnLoop(_:)`), never inside the call that asked. Releasing the
/// control cancels its requests without calling their completions.
public final class RendererControl {
    /// The renderer driven.
    public let renderer: Renderer
    /// The deadline of every call.
    public let timeout: Duration
    /// True once the renderer left the discovery's list (or discovery stopped): calls fail with
    /// ``CastError/gone`` at once.
    public private(set) var isGone = false

    static let avTransportType = "urn:schemas-upnp-org:service:AVTransport:1"
    static let renderingControlType = "urn:schemas-upnp-org:service:RenderingControl:1"

    let avTransport: UnsafeMutablePointer<GUPnPServiceProxy>
    let renderingControl: UnsafeMutablePointer<GUPnPServiceProxy>?
    /// Calls waiting their turn, in the order issued.
    var queue: [QueuedCall] = []
    /// The one call on the wire.
    var inFlight: UPnPActionCall?
    var lastChange: [LastChangeSubscription] = []
    /// The `LastChange` handler while subscribed; confirmed states go to it too.
    var lastChangeHandler: ((LastChange) -> Void)?
    /// Asks `GetTransportInfo` when a transport state event is late (RendererControl+Confirm.swift).
    var lateEventTimer: TimerSource?
    /// Each AVTransport SUBSCRIBE GUPnP sends (its resubscriptions too) while subscribed.
    var subscribeWatch: SubscribeWatch?
    /// Settled transport state events heard so far (not `TRANSITIONING`).
    var transportEvents = 0
    /// How many times a late event was confirmed by `GetTransportInfo`.
    var confirmations = 0
    /// How long a transport state event may take, after a subscription or a successful Play,
    /// Pause, Stop or SetAVTransportURI, before one `GetTransportInfo` confirms the state
    /// (RendererControl+Confirm.swift). 1 s by default.
    public var eventGrace: Duration = .seconds(1)

    /// Nil when the device has no AVTransport service.
    init?(device: UnsafeMutablePointer<GUPnPDeviceProxy>, renderer: Renderer, timeout: Duration) {
        let info = GLibValues.cast(device, to: GUPnPDeviceInfo.self)
        guard let transport = gupnp_device_info_get_service(info, Self.avTransportType) else { return nil }
        avTransport = GLibValues.cast(transport)
        renderingControl = gupnp_device_info_get_service(info, Self.renderingControlType).map { GLibValues.cast($0) }
        self.renderer = renderer
        self.timeout = timeout
    }

    deinit {
        cancelAll()
        for subscription in lastChange { subscription.cancel() }
        g_object_unref(avTransport)
        if let renderingControl { g_object_unref(renderingControl) }
    }

    /// Cancels every call in flight or waiting; their completions do not run.
    public func cancelAll() {
        inFlight?.cancel()
        inFlight = nil
        queue = []
    }

    /// Called by the discovery when the renderer left its list.
    func markGone() {
        isGone = true
        unsubscribeLastChange()
    }

    /// Calls `action` on `service` (instance 0 first), reading `results`; the one path of every
    /// call. Calls go out one at a time, in the order issued (renderers such as gmediarender
    /// handle concurrent requests in any order: a SetVolume overtaking the SetMute issued after
    /// it unmutes again). Each call's deadline counts from when it was issued; calls before it
    /// end by theirs, which are earlier, so waiting never stretches it (beyond scheduling).
    func call(_ service: UnsafeMutablePointer<GUPnPServiceProxy>?, _ action: String, _ arguments: [(String, String)] = [],
              results: [String] = [], completion: @escaping (Result<[String: String], CastError>) -> Void) {
        // Failures known at once still complete later, never inside this call.
        guard !isGone else { return runSoonOnThreadDefaultContext { completion(.failure(.gone)) } }
        guard let service else {
            return runSoonOnThreadDefaultContext { completion(.failure(.transport("the renderer has no RenderingControl service"))) }
        }
        queue.append(QueuedCall(service: service, action: action, arguments: [("InstanceID", "0")] + arguments,
                                results: results, deadline: .now + timeout, completion: completion))
        sendNext()
    }

    /// Puts the next queued call on the wire when none is.
    private func sendNext() {
        guard inFlight == nil, !queue.isEmpty else { return }
        let next = queue.removeFirst()
        guard !isGone else {
            runSoonOnThreadDefaultContext { next.completion(.failure(.gone)) }
            return sendNext()
        }
        let left = max(next.deadline - .now, .milliseconds(1))
        inFlight = UPnPActionCall.start(on: next.service, action: next.action, arguments: next.arguments,
                                        results: next.results, timeout: left) { [weak self] result in
            self?.inFlight = nil
            next.completion(result)
            self?.sendNext()
        }
    }

    /// A call waiting for the one before it.
    struct QueuedCall {
        let service: UnsafeMutablePointer<GUPnPServiceProxy>
        let action: String
        let arguments: [(String, String)]
        let results: [String]
        let deadline: ContinuousClock.Instant
        let completion: (Result<[String: String], CastError>) -> Void
    }

    /// A call whose only result is success or failure.
    func command(_ service: UnsafeMutablePointer<GUPnPServiceProxy>?, _ action: String, _ arguments: [(String, String)] = [],
                 completion: @escaping (Result<Void, CastError>) -> Void) {
        call(service, action, arguments) { completion($0.map { _ in () }) }
    }
}
