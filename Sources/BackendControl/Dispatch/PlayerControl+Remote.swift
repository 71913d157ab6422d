import Backend

extension PlayerControl {
    /// Serves the web remote (``WebRemote``): a page with the player's controls at `/`, its
    /// WebSocket at `/ws` (gstplay's JSON protocol, events included), the HTTP API
    /// (`/api/status`, `/api/command`) and the frame and thumbnail images, every route but `/`
    /// behind the token (``WebRemote/url`` carries it in its fragment). Its requests go to the
    /// same tasks as ``serveSocket(path:)``'s; only for a control made with
    /// ``init(player:configuration:log:)``. Throws when the address is not an IP address or the
    /// port is taken (the error's description says which). Any thread; close the returned remote
    /// to stop serving it.
    @discardableResult
    public nonisolated func serveWebRemote(settings: RemoteSettings = RemoteSettings()) throws -> WebRemote {
        guard let hub else { throw ControlSocketError(message: "this control has no hub (made with init(player:hub:) and nil)") }
        return try WebRemote(settings: settings, hub: hub, player: player)
    }
}
