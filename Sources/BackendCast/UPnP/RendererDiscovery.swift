import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

/// Finds UPnP AV MediaRenderers on the LAN with GUPnP: a `GUPnPContextManager` (one
/// `GUPnPContext` per usable network interface, optionally limited by its `GUPnPContextFilter`)
/// and, per context, a `GUPnPControlPoint` browsing for `urn:schemas-upnp-org:device:MediaRenderer:1`
/// (SSDP M-SEARCH and NOTIFY). A renderer is listed once its `ConnectionManager:GetProtocolInfo`
/// answered or timed out, and leaves the list on its `ssdp:byebye` or when its announcement
/// expires (`device-proxy-unavailable`).
///
/// Nothing touches the network before ``start(interfaces:)``; ``stop()`` releases every GUPnP
/// object, signal handler and pending call (sockets closed).
///
/// **Thread:** the player's loop thread only — create it, call it and release it there; GUPnP
/// runs on that thread's default `GMainContext` (`FeatureContext.runOnLoop(_:)`). ``onChange``
/// runs there too, from GUPnP's own callbacks (not a player handler: publish through `runOnLoop`).
public final class RendererDiscovery {
    /// The device type browsed for.
    public static let deviceType = "urn:schemas-upnp-org:device:MediaRenderer:1"
    static let connectionManager = "urn:schemas-upnp-org:service:ConnectionManager:1"

    /// Called on the loop thread with the whole list whenever a renderer appears or disappears.
    public var onChange: (([Renderer]) -> Void)?
    /// The renderers known now, in the order they appeared.
    public var renderers: [Renderer] { order.compactMap { devices[$0]?.renderer } }
    /// True between ``start(interfaces:)`` and ``stop()``.
    public var isRunning: Bool { manager != nil }
    /// How long `GetProtocolInfo` may take before a renderer is listed without its protocols.
    public let protocolInfoTimeout: Duration

    var manager: UnsafeMutablePointer<GUPnPContextManager>?
    var managerHandlers: [gulong] = []
    var points: [ControlPoint] = []
    var devices: [String: Device] = [:]
    var order: [String] = []
    var controls: [WeakControl] = []
    /// Control points replaced by a rescan (``drop(_:)``), kept ``retireDelay`` so the byebye of
    /// a device the new point has not found again yet still counts.
    var retiring: [(point: ControlPoint, timer: TimerSource)] = []
    /// How long a replaced control point stays.
    static let retireDelay: Duration = .seconds(10)

    /// A discovery that is not running yet.
    public init(protocolInfoTimeout: Duration = .seconds(5)) {
        self.protocolInfoTimeout = protocolInfoTimeout
    }

    deinit { stop() }

    /// Starts browsing (`gupnp_context_manager_create_full`, IPv4, on a port free for both TCP and
    /// UDP: `ContextPort`): on every network interface, or
    /// only on `interfaces` (names such as `eth0`, or addresses; `gupnp_context_filter_add_entry`).
    /// Does nothing when already running.
    public func start(interfaces: [String]? = nil) {
        guard manager == nil else { return }
        let manager = gupnp_context_manager_create_full(GSSDP_UDA_VERSION_1_0, G_SOCKET_FAMILY_IPV4, guint(ContextPort.freeForTCPAndUDP()))!
        self.manager = manager
        if let interfaces, !interfaces.isEmpty {
            let filter = gupnp_context_manager_get_context_filter(manager)
            for name in interfaces { gupnp_context_filter_add_entry(filter, name) }
            gupnp_context_filter_set_enabled(filter, 1)
        }
        managerHandlers = [
            connect(manager, "context-available") { discovery, context in discovery.contextAvailable(context) },
            connect(manager, "context-unavailable") { discovery, context in discovery.contextUnavailable(context) },
        ]
    }

    /// Stops browsing and releases everything (control points, contexts, the manager, pending
    /// `GetProtocolInfo` calls). The list empties without ``onChange`` being called. Idempotent.
    public func stop() {
        for udn in order { devices[udn]?.release() }
        devices = [:]
        order = []
        for point in points { point.release() }
        points = []
        for (point, timer) in retiring { timer.destroy(); point.release() }
        retiring = []
        for control in controls { control.control?.markGone() }
        controls = []
        if let manager {
            for id in managerHandlers { g_signal_handler_disconnect(manager, id) }
            g_object_unref(manager)
        }
        managerHandlers = []
        manager = nil
    }

    /// A controller for `renderer` (its `AVTransport` and `RenderingControl` services), nil when it
    /// is not (or no longer) listed or has no AVTransport. Every call has `timeout`.
    public func makeControl(for renderer: Renderer, timeout: Duration = .seconds(5)) -> RendererControl? {
        guard let device = devices[renderer.udn], device.renderer != nil,
              let control = RendererControl(device: device.proxy, renderer: renderer, timeout: timeout) else { return nil }
        controls.removeAll { $0.control == nil }
        controls.append(WeakControl(control: control))
        return control
    }

    func changed() { onChange?(renderers) }
}

extension RendererDiscovery {
    /// One `GUPnPControlPoint` on one context (network interface), both held.
    struct ControlPoint {
        let context: UnsafeMutablePointer<GUPnPContext>
        let point: UnsafeMutablePointer<GUPnPControlPoint>
        let handlers: [gulong]

        /// Handlers first: a browser made inactive reports its devices unavailable, which must
        /// not reach the list when the point is only replaced (``RendererDiscovery/drop(_:)``).
        func release() {
            for id in handlers { g_signal_handler_disconnect(point, id) }
            gssdp_resource_browser_set_active(GLibValues.cast(point), 0)
            g_object_unref(point)
            g_object_unref(context)
        }
    }

    /// A renderer's device proxy (held) and, until listed, its pending `GetProtocolInfo`.
    final class Device {
        private(set) var proxy: UnsafeMutablePointer<GUPnPDeviceProxy>
        /// The control point that found it (replaced by a rescan, ``RendererDiscovery/drop(_:)``).
        var point: UnsafeMutablePointer<GUPnPControlPoint>
        var pending: UPnPActionCall?
        var renderer: Renderer?

        init(proxy: UnsafeMutablePointer<GUPnPDeviceProxy>, point: UnsafeMutablePointer<GUPnPControlPoint>) {
            self.proxy = proxy
            self.point = point
            g_object_ref(proxy)
        }

        /// The same device as found by its control point's replacement: that proxy is held
        /// instead (its byebye names it). Controls made earlier keep their own service proxies.
        func adopt(_ other: UnsafeMutablePointer<GUPnPDeviceProxy>) {
            guard other != proxy else { return }
            g_object_ref(other)
            g_object_unref(proxy)
            proxy = other
        }

        func release() {
            pending?.cancel()
            pending = nil
        }

        deinit { g_object_unref(proxy) }
    }

    /// A control handed out, told when its renderer goes.
    struct WeakControl {
        weak var control: RendererControl?
    }
}
