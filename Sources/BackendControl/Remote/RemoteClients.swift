import HTTPServe
import Synchronization

/// The web remote's WebSocket clients as clients of the ``ControlHub``: each WebSocket is one
/// more client speaking gstplay's JSON protocol (``ControlDialect/gstplay``), one request per
/// text message, each reply and every event one text message back.
///
/// **Thread:** the HTTP server's thread only (handed to it with the WebSocket handler,
/// `HTTPServer.acceptWebSockets`), so the id table is a plain property; the hub's calls into a
/// ``Connection`` come from any thread and only queue a send.
final class RemoteClients {
    private let hub: ControlHub
    private var ids: [Int: ControlClientID] = [:]

    init(hub: ControlHub) { self.hub = hub }

    /// One WebSocket, as the hub sees it.
    private struct Connection: ControlConnection {
        let server: HTTPServer
        let number: Int
        func deliver(_ line: String) { server.send(line, to: number) }
        func disconnect() { server.disconnect(number) }
    }

    /// A server event turned into the hub's call.
    func handle(_ event: WebSocketEvent, server: HTTPServer) {
        switch event {
        case .connected(let number):
            // Registered first, so that a message right after the handshake finds its id.
            let id = hub.connect(Connection(server: server, number: number), dialect: .gstplay)
            ids[number] = id
        case .received(let number, let text):
            guard let id = ids[number] else { return }
            hub.received(text, from: id)
        case .closed(let number, let reason):
            guard let id = ids.removeValue(forKey: number) else { return }
            hub.disconnected(id, reason: reason.map { "web remote: \($0)" })
        }
    }
}
