import Dispatch
import HTTPServe
import BackendCore
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
    /// The hub's id for this one-request client.
    private let id: ControlClientID
    /// The HTTP answer, given once (the reply, the timeout or the hub's departure, whichever is first).
    private let answer: PendingReply<HTTPResponse>

    private init(id: ControlClientID, hub: ControlHub, responder: HTTPResponder) {
        self.id = id
        answer = PendingReply { result in
            switch result {
            case .success(let response): responder.respond(response)
            case .failure: responder.respond(.text("503 the player is closing\n", status: 503))
            }
            DispatchQueue.global().async { hub.disconnected(id, reason: nil) }
        }
    }

    /// The request's `request_id`: `http-N`, N the hub's id for this one-request client (unique
    /// among the hub's clients, and a reply only reaches the client that asked).
    private static func requestID(_ client: ControlClientID) -> String { "http-\(client.rawValue)" }

    /// Runs `command` (a console command such as `pause` or `seek 50%`, or `status`) and
    /// answers `responder` with its reply.
    static func run(_ command: String, hub: ControlHub, responder: HTTPResponder) {
        var made: RemoteRequest?
        let clientID = hub.connect(dialect: .gstplay) { id in
            let request = RemoteRequest(id: id, hub: hub, responder: responder)
            made = request
            return request
        }
        let quoted = (try? JSONEncoder().encode(command)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        hub.received("{\"command\":\(quoted),\"request_id\":\"\(requestID(clientID))\"}", from: clientID)
        guard let request = made else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            request.answer.resolve(.success(.text("504 no reply from the player\n", status: 504)))
        }
    }

    /// A line for this client: the reply it waits for ends with its `request_id` (replies'
    /// keys are sorted: `data`, `error`, `request_id`).
    func deliver(_ line: String) {
        guard line.hasSuffix("\"request_id\":\"\(Self.requestID(id))\"}") else { return }
        let success = line.contains("\"error\":\"success\",\"request_id\"")
        answer.resolve(.success(HTTPResponse(status: success ? 200 : 400, contentType: "application/json", body: Array((line + "\n").utf8))))
    }

    func disconnect() { answer.resolve(.failure(.shutDown)) }
}
