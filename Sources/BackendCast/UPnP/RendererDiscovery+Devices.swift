import BackendCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CGStreamer
import CGUPnP

/// What GUPnP reports, turned into the list. **Thread:** the loop thread (GUPnP's callbacks).
extension RendererDiscovery {
    /// A new context (interface): a control point browsing on it.
    func contextAvailable(_ pointer: UnsafeMutableRawPointer) {
        points.append(makeControlPoint(on: pointer.assumingMemoryBound(to: GUPnPContext.self)))
    }

    /// A control point browsing on `context` (held, with the context), active: it searches (M-SEARCH) at once.
    func makeControlPoint(on context: UnsafeMutablePointer<GUPnPContext>) -> ControlPoint {
        g_object_ref(context)
        let point = gupnp_control_point_new(context, Self.deviceType)!
        let handlers = [
            connect(point, "device-proxy-available") { discovery, proxy in
                discovery.deviceAvailable(proxy.assumingMemoryBound(to: GUPnPDeviceProxy.self), on: point)
            },
            connect(point, "device-proxy-unavailable") { discovery, proxy in
                discovery.deviceUnavailable(proxy.assumingMemoryBound(to: GUPnPDeviceProxy.self))
            },
        ]
        gssdp_resource_browser_set_active(GLibValues.cast(point), 1)
        return ControlPoint(context: context, point: point, handlers: handlers)
    }

    /// A context went away: its control point and the renderers found through it go too.
    func contextUnavailable(_ pointer: UnsafeMutableRawPointer) {
        guard let index = points.firstIndex(where: { UnsafeMutableRawPointer($0.context) == pointer }) else { return }
        let entry = points.remove(at: index)
        let lost = order.filter { devices[$0]?.point == entry.point }
        for udn in lost { forget(udn) }
        entry.release()
        if !lost.isEmpty { changed() }
    }

    func deviceAvailable(_ proxy: UnsafeMutablePointer<GUPnPDeviceProxy>, on point: UnsafeMutablePointer<GUPnPControlPoint>) {
        let info = GLibValues.cast(proxy, to: GUPnPDeviceInfo.self)
        guard let udnText = gupnp_device_info_get_udn(info) else { return }
        let udn = String(cString: udnText)
        if let known = devices[udn] {              // seen on another interface already, or found again after a rescan
            if known.point == point { known.adopt(proxy) }
            return
        }
        guard points.contains(where: { $0.point == point }) else { return }   // a point being retired: its successor lists it
        let device = Device(proxy: proxy, point: point)
        devices[udn] = device
        order.append(udn)
        let context = gupnp_control_point_get_context(point)
        let host = gssdp_client_get_host_ip(GLibValues.cast(context!, to: GSSDPClient.self)).map { String(cString: $0) } ?? ""
        let found = Renderer(udn: udn,
                             friendlyName: GLibValues.take(gupnp_device_info_get_friendly_name(info)) ?? udn,
                             model: GLibValues.take(gupnp_device_info_get_model_name(info)),
                             protocols: [],
                             location: gupnp_device_info_get_location(info).map { String(cString: $0) } ?? "",
                             hostAddress: host)
        guard let service = gupnp_device_info_get_service(info, Self.connectionManager) else {
            return list(found, udn: udn)
        }
        device.pending = UPnPActionCall.start(on: GLibValues.cast(service), action: "GetProtocolInfo", arguments: [],
                                              results: ["Sink"], timeout: protocolInfoTimeout) { [weak self] result in
            var renderer = found
            if case .success(let values) = result { renderer.protocols = Self.protocolList(values["Sink"] ?? "") }
            self?.list(renderer, udn: udn)
        }
        g_object_unref(service)
    }

    func deviceUnavailable(_ proxy: UnsafeMutablePointer<GUPnPDeviceProxy>) {
        guard let udnText = gupnp_device_info_get_udn(GLibValues.cast(proxy)) else { return }
        let udn = String(cString: udnText)
        guard let device = devices[udn], device.proxy == proxy else { return }
        let wasListed = device.renderer != nil
        forget(udn)
        if wasListed { changed() }
    }

    /// `GetProtocolInfo`'s comma-separated `Sink` list, one protocolInfo each.
    static func protocolList(_ sink: String) -> [String] {
        sink.split(separator: ",").map { String($0).trimmingSurroundingWhitespace() }.filter { !$0.isEmpty }
    }

    private func list(_ renderer: Renderer, udn: String) {
        guard let device = devices[udn] else { return }
        device.pending = nil
        device.renderer = renderer
        changed()
    }

    func forget(_ udn: String) {
        devices[udn]?.release()
        devices[udn] = nil
        order.removeAll { $0 == udn }
        for entry in controls where entry.control?.renderer.udn == udn { entry.control?.markGone() }
    }
}
