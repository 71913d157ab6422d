import Dispatch
import HTTPServe
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP API request run through the ``ControlHub`` like any client's: a short-lived hub
/// client sends one JSON request with its own `request_id` and answers the HTTP request with
/// the reply line (`application/json`; 200 on `"error":"success"`, else 400). Events reaching
/// it meanwhile are ignored. After 10 s without a reply: 504.
///
/// **Thread:** any; ``deliver(_:)`` is called by the hub under its lock, so leaving the hub is
/// queued (`DispatchQueue.global`), never done inline.
final class RemoteRequest: ControlConnection, Sendable {
    private let hub: ControlHub
    private let responder: HTTPResponder
    /// The hub's id for it (once connected) and whether the HTTP request was answered: one lock.
    private let state = Mutex<(id: ControlClientID?, answered: Bool)>((nil, false))

    private init(hub: ControlHub, responder: HTTPResponder) {
        self.hub = hub
        self.responder = responder
    }

    /// The request's `request_id`: `http-N`, N the hub's id for this one-request client (unique
    /// among the hub's clients, and a reply only reaches the client that asked).
    private static func requestID(_ client: ControlClientID) -> String { "http-\(client.rawValue)" }

    /// Runs `command` (a console command such as `pause` or `seek 50%`, or `status`) and
    /// answers `responder` with its reply.
    static func run(_ command: String, hub: ControlHub, responder: HTTPResponder) {
        let request = RemoteRequest(hub: hub, responder: responder)
        let clientID = hub.connect(request, dialect: .gstplay)
        request.state.withLock { $0.id = clientID }
        let quoted = (try? JSONEncoder().encode(command)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        hub.received("{\"command\":\(quoted),\"request_id\":\"\(requestID(clientID))\"}", from: clientID)
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            request.finish(.text("504 no reply from the player\n", status: 504))
        }
    }

    /// A line for this client: the reply it waits for ends with its `request_id` (replies'
    /// keys are sorted: `data`, `error`, `request_id`).
    func deliver(_ line: String) {
        guard let client = state.withLock({ $0.id }),
              line.hasSuffix("\"request_id\":\"\(Self.requestID(client))\"}") else { return }
        let success = line.contains("\"error\":\"success\",\"request_id\"")
        finish(HTTPResponse(status: success ? 200 : 400, contentType: "application/json", body: Array((line + "\n").utf8)))
    }

    func disconnect() { finish(.text("503 the player is closing\n", status: 503)) }

    private func finish(_ response: HTTPResponse) {
        guard let clientID = state.withLock({ state -> ControlClientID?? in
            if state.answered { return nil }
            state.answered = true
            return .some(state.id)
        }) else { return }
        responder.respond(response)
        let hub = self.hub
        DispatchQueue.global().async { if let clientID { hub.disconnected(clientID, reason: nil) } }
    }
}
