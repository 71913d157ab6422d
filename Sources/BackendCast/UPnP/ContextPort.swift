import BackendCore
import CGUPnP

/// The port for GUPnP's contexts. GUPnP 1.6 binds each context's HTTP server (TCP; event
/// callbacks land there) on the port number of its SSDP socket (UDP, `gssdp_client_get_port`).
/// Left at 0, the kernel picks a free UDP port whose TCP twin may be taken: the context then
/// fails ("Could not create HTTP server on port 51780", a GLib warning) and nothing is
/// discovered on that interface (seen once in three `make test` runs, with many servers up).
/// This asks the kernel for a free TCP port and keeps it only when UDP can bind it too
/// (`g_socket_bind` on the any-address, both sockets closed again); 0 (GUPnP's own choice)
/// when eight tries found none.
///
/// **Thread:** any (blocking socket calls that return at once).
enum ContextPort {
    static func freeForTCPAndUDP() -> guint16 {
        for _ in 0..<8 {
            guard let port = bind(G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, port: 0), port != 0 else { continue }
            if bind(G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, port: port) != nil { return port }
        }
        return 0
    }

    /// Binds a new IPv4 socket of `type` to `0.0.0.0:port`, closes it and returns the port it was
    /// bound to; nil when the bind failed.
    private static func bind(_ type: GSocketType, _ proto: GSocketProtocol, port: guint16) -> guint16? {
        guard let socket = g_socket_new(G_SOCKET_FAMILY_IPV4, type, proto, nil) else { return nil }
        defer { g_object_unref(socket) }
        let any = g_inet_address_new_any(G_SOCKET_FAMILY_IPV4)
        defer { g_object_unref(any) }
        guard let address = g_inet_socket_address_new(any, port) else { return nil }
        defer { g_object_unref(address) }
        guard g_socket_bind(socket, address, 0, nil) != 0, let local = g_socket_get_local_address(socket, nil) else { return nil }
        defer { g_object_unref(local) }
        return local.withMemoryRebound(to: GInetSocketAddress.self, capacity: 1) { g_inet_socket_address_get_port($0) }
    }
}
