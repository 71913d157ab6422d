import BackendCore
import CGStreamer
import CGUPnP

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
    var pending: [ObjectIdentifier: UPnPActionCall] = [:]
    var lastChange: [LastChangeSubscription] = []

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

    /// Cancels every call in flight; their completions do not run.
    public func cancelAll() {
        for call in pending.values { call.cancel() }
        pending = [:]
    }

    /// Called by the discovery when the renderer left its list.
    func markGone() {
        isGone = true
        for subscription in lastChange { subscription.cancel() }
        lastChange = []
    }

    /// Calls `action` on `service` (instance 0 first), reading `results`; the one path of every call.
    func call(_ service: UnsafeMutablePointer<GUPnPServiceProxy>?, _ action: String, _ arguments: [(String, String)] = [],
              results: [String] = [], completion: @escaping (Result<[String: String], CastError>) -> Void) {
        // Failures known at once still complete later, never inside this call.
        guard !isGone else { return runSoonOnThreadDefaultContext { completion(.failure(.gone)) } }
        guard let service else {
            return runSoonOnThreadDefaultContext { completion(.failure(.transport("the renderer has no RenderingControl service"))) }
        }
        var key: ObjectIdentifier?
        let call = UPnPActionCall.start(on: service, action: action, arguments: [("InstanceID", "0")] + arguments,
                                        results: results, timeout: timeout) { [weak self] result in
            if let key { self?.pending[key] = nil }
            completion(result)
        }
        key = ObjectIdentifier(call)
        pending[ObjectIdentifier(call)] = call
    }

    /// A call whose only result is success or failure.
    func command(_ service: UnsafeMutablePointer<GUPnPServiceProxy>?, _ action: String, _ arguments: [(String, String)] = [],
                 completion: @escaping (Result<Void, CastError>) -> Void) {
        call(service, action, arguments) { completion($0.map { _ in () }) }
    }
}
