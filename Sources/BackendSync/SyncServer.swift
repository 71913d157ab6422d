import BackendCore
import CGStreamer
import CGstNet
import HTTPServe
import Synchronization

/// Why a sync leader could not start. A plain value; any thread.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// One line, without the `gstplay:` prefix.
    public let description: String
}

/// The leader's doors: its clock on UDP (`GstNetTimeProvider` on the system clock) and its
/// session over HTTP (``HTTPServer``): `GET /sync/session` answers the session in force as JSON;
/// the WebSocket `/sync/events` sends it on connection and again after every change; local files
/// are served under random paths for the followers. Neither route asks for the remote's token:
/// the session says what plays and where, and serving it on the LAN is the point (followers
/// cannot change anything through it).
///
/// **Thread:** any (the HTTP server's handlers run on its thread; the session is behind a `Mutex`).
final class SyncServer: Sendable {
    let http: HTTPServer
    /// The system clock the pipeline uses and the provider serves (referenced).
    nonisolated(unsafe) let clock: UnsafeMutablePointer<GstClock>
    /// The `GstNetTimeProvider` (referenced).
    nonisolated(unsafe) private let provider: UnsafeMutableRawPointer
    private let state = SharedState()

    /// The state behind its lock, in a class so that the server's handlers can hold it.
    private final class SharedState: Sendable {
        let lock = Mutex<ServerState>(ServerState())
        func withLock<T>(_ body: (inout ServerState) -> T) -> T { lock.withLock { body(&$0) } }
    }

    private struct ServerState {
        var session: SyncSession?
        var clients: Set<Int> = []
        /// Local file path → the path it is served under.
        var served: [String: String] = [:]
        var closed = false
    }

    /// Listens on `endpoint` (TCP for HTTP, UDP for the clock, one port number; port 0: the
    /// HTTP server picks one and the clock takes the same number). Throws when either cannot listen.
    /// `realtimeClock`: the clock provider's thread starts real-time where allowed (``RenderScheduling``).
    init(endpoint: SyncEndpoint, realtimeClock: Bool = true) throws(SyncError) {
        GStreamerRuntime.ensureInitialized()
        let http: HTTPServer
        do {
            http = try HTTPServer(address: endpoint.host, port: endpoint.port, token: AccessToken.random())
        } catch {
            throw SyncError(description: "--sync-serve: \(error.description)")
        }
        guard let clock = gst_system_clock_obtain() else {
            http.close()
            throw SyncError(description: "--sync-serve: no system clock")
        }
        // The provider's thread stamps each answer: started real-time where allowed (RenderScheduling).
        let start = { gst_net_time_provider_new(UnsafeMutableRawPointer(clock), endpoint.host, Int32(http.port)) }
        let made = realtimeClock ? RenderScheduling.raisingThreadsStarted(by: start) : start()
        guard let provider = made else {
            gst_object_unref(UnsafeMutableRawPointer(clock))
            http.close()
            throw SyncError(description: "--sync-serve: cannot serve the clock on UDP \(endpoint.host):\(http.port) (in use?)")
        }
        self.http = http
        self.clock = clock
        self.provider = provider
        http.route("/sync/session", requiresToken: false) { [state] _, responder in
            let text = state.withLock { $0.session?.json } ?? "null"
            responder.respond(HTTPResponse(status: 200, contentType: "application/json", body: Array((text + "\n").utf8)))
        }
        http.acceptWebSockets(at: "/sync/events", requiresToken: false) { [state] server, event in
            switch event {
            case .connected(let id):
                let text = state.withLock { state -> String? in
                    state.clients.insert(id)
                    return state.session?.json
                }
                if let text { server.send(text, to: id) }
            case .closed(let id, _):
                _ = state.withLock { $0.clients.remove(id) }
            case .received:
                break       // followers send nothing; anything sent is ignored
            }
        }
    }

    /// The port of both doors.
    var port: UInt16 { http.port }

    /// The session in force, if published.
    var session: SyncSession? { state.withLock { $0.session } }

    /// Makes `session` the one in force and sends it to every connected follower.
    func publish(_ session: SyncSession) {
        let clients = state.withLock { state -> [Int] in
            state.session = session
            return state.closed ? [] : Array(state.clients)
        }
        let text = session.json
        for id in clients { http.send(text, to: id) }
    }

    /// What followers load for `uri`: a local file becomes the path it is served under on this
    /// server (followers put their leader's `http://HOST:PORT` in front); other URIs stay.
    func followerURI(for uri: String) -> String {
        guard let path = FileURI.path(of: uri) else { return uri }
        if let served = state.withLock({ $0.served[path] }) { return served }
        // Not under the lock: serveFile waits for the server thread, whose handlers take it.
        let served = http.serveFile(path, contentType: "application/octet-stream")
        state.withLock { $0.served[path] = served }
        return served
    }

    /// Closes both doors. Idempotent.
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        http.close()
        g_object_unref(provider)
        gst_object_unref(UnsafeMutableRawPointer(clock))
    }
}
