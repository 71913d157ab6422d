import Backend
import HTTPServe
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--remote`: the web remote. An `HTTPServer` (libsoup, its own thread) with:
/// `/` the page (`RemotePage`, no data in it, so no token), `/ws` the WebSocket — one more
/// transport of the ``ControlHub`` (`RemoteClients`) —, `GET /api/status`, `POST /api/command`
/// (through the same dispatcher, `RemoteRequest`), `GET /api/snapshot.png` (the frame on
/// screen, `Player.snapshot`) and `GET /api/thumbnail.png?t=SECONDS` (the seek bar's preview,
/// `ThumbnailGenerator` on the current item), each at most two at once (`JobLimit`). Every
/// route but `/` needs the token.
///
/// **Thread:** init and ``close()`` on the CLI's thread; handlers run on the server's thread
/// and hand slow work (snapshots, thumbnails) to tasks.
public final class WebRemote: Sendable {
    private let server: HTTPServer

    /// Starts listening; throws `HTTPServeError` (address not an IP, port taken).
    public init(settings: RemoteSettings, hub: ControlHub, player: Player) throws(HTTPServeError) {
        let token = settings.token.map(AccessToken.init) ?? AccessToken.random()
        server = try HTTPServer(address: settings.bind, port: settings.port, token: token)
        // Handed to the server's thread: only the handler holds it from now on.
        let clients = RemoteClients(hub: hub)
        server.acceptWebSockets(at: "/ws") { server, event in clients.handle(event, server: server) }
        server.route("/", requiresToken: false) { request, responder in
            guard request.path == "/" || request.path == "/index.html" else {
                return responder.respond(.text("404 not found\n", status: 404))
            }
            responder.respond(.text(RemotePage.html, contentType: "text/html; charset=utf-8"))
        }
        server.route("/api/status") { request, responder in
            guard request.method == "GET" else { return responder.respond(.text("405 use GET\n", status: 405)) }
            RemoteRequest.run("status", hub: hub, responder: responder)
        }
        server.route("/api/command") { request, responder in
            guard request.method == "POST" else { return responder.respond(.text("405 use POST\n", status: 405)) }
            let command = request.text.trimmingWhitespaceAndNewlines()
            guard !command.isEmpty, !command.contains("\n") else {
                return responder.respond(.text("400 the body must be one console command, e.g. 'pause'\n", status: 400))
            }
            RemoteRequest.run(command, hub: hub, responder: responder)
        }
        let snapshots = JobLimit(WebRemote.maxSnapshots), thumbnails = JobLimit(WebRemote.maxThumbnails)
        server.route("/api/snapshot.png") { _, responder in
            guard snapshots.enter() else { return responder.respond(JobLimit.busy("snapshots", WebRemote.maxSnapshots)) }
            Task {
                defer { snapshots.leave() }
                do {
                    let image = try await player.snapshot(format: .png)
                    responder.respond(HTTPResponse(contentType: "image/png", body: Array(image.bytes)))
                } catch {
                    responder.respond(.text("503 no frame: \(error)\n", status: 503))
                }
            }
        }
        server.route("/api/thumbnail.png") { request, responder in
            guard let seconds = request.query["t"].flatMap(Double.init), seconds.isFinite, seconds >= 0,
                  let uri = player.snapshot.uri else {
                return responder.respond(.text("400 needs ?t=SECONDS while something plays\n", status: 400))
            }
            guard thumbnails.enter() else { return responder.respond(JobLimit.busy("thumbnails", WebRemote.maxThumbnails)) }
            Task {
                defer { thumbnails.leave() }
                do {
                    let generator = ThumbnailGenerator(location: uri, maximumSize: ImageSize(width: 160), timeout: .seconds(5))
                    guard let thumbnail = try await generator.generate(at: .times([MediaTime(seconds: seconds)])).first else {
                        return responder.respond(.text("503 no thumbnail\n", status: 503))
                    }
                    responder.respond(HTTPResponse(contentType: "image/png", body: Array(thumbnail.image.bytes)))
                } catch {
                    responder.respond(.text("503 no thumbnail: \(error)\n", status: 503))
                }
            }
        }
    }

    /// Thumbnails made at once (each a pipeline with its threads); one more request gets 503
    /// with `Retry-After: 1` (a hundred at once started 537 threads and kept 400 MB).
    static let maxThumbnails = 2
    /// Snapshots of the frame on screen taken at once; one more gets 503 likewise.
    static let maxSnapshots = 2

    /// The URL to print: the page with the token in its fragment (never sent to a server);
    /// a wildcard bind address is shown as 127.0.0.1.
    public var url: String {
        let host = server.address == "0.0.0.0" || server.address == "::" ? "127.0.0.1" : server.address
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(server.port)/#token=\(server.token.text)"
    }

    /// Closes every client and the listener (joins the server's thread). Idempotent.
    public func close() { server.close() }
}
