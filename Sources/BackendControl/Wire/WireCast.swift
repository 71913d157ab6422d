import Backend

/// Casting's part of the `--json` protocol: the `renderers`, `cast-started`,
/// `cast-ended` and `cast-failed` events (`CastEvent`) and the `renderers` / `cast` replies.
/// Pure; any thread.
public enum WireCast {
    /// One renderer: `{"index":0,"name":"Living room","udn":"uuid:…","model":"gmediarender",…}`.
    public struct Entry: Encodable, Sendable, Equatable {
        package var index: Int
        package var name: String
        package var udn: String
        @Nullable package var model: String?
        package var location: String
        package var hostAddress: String
        package var protocols: [String]

        package init(_ renderer: Renderer, index: Int) {
            self.index = index
            name = renderer.friendlyName
            udn = renderer.udn
            model = renderer.model
            location = renderer.location
            hostAddress = renderer.hostAddress
            protocols = renderer.protocols
        }
    }

    /// The `renderers` event: every renderer found (after one appeared or left).
    public struct Changed: Encodable, Sendable, Equatable {
        package var renderers: [Entry]
        package init(_ renderers: [Renderer]) { self.renderers = renderers.enumerated().map { Entry($1, index: $0) } }
    }

    /// The `renderers` reply: every renderer found, and the UDN of the one cast to (null: none).
    public struct List: Encodable, Sendable, Equatable {
        package var renderers: [Entry]
        @Nullable package var casting: String?
        package init(_ renderers: [Renderer], casting: Renderer?) {
            self.renderers = renderers.enumerated().map { Entry($1, index: $0) }
            self.casting = casting?.udn
        }
    }

    /// `cast-started` / `cast-ended` / `cast-failed`: the renderer (null when none was found),
    /// the position local playback resumes at (`cast-ended`), the reason (`cast-failed`).
    public struct Change: Encodable, Sendable, Equatable {
        @Nullable package var name: String?
        @Nullable package var udn: String?
        package var position: Seconds?
        package var message: String?
    }

    /// The line for a cast event.
    public static func line(for event: CastEvent) -> String {
        switch event {
        case .renderersChanged(let renderers):
            return Wire.line(WireEvent(event: "renderers", payload: Changed(renderers)))
        case .castStarted(let renderer):
            return Wire.line(WireEvent(event: "cast-started", payload: Change(name: renderer.friendlyName, udn: renderer.udn)))
        case .castEnded(let renderer, let position):
            return Wire.line(WireEvent(event: "cast-ended", payload: Change(name: renderer.friendlyName, udn: renderer.udn,
                                                                             position: Seconds(position))))
        case .castFailed(let renderer, let message):
            return Wire.line(WireEvent(event: "cast-failed", payload: Change(name: renderer?.friendlyName, udn: renderer?.udn,
                                                                              message: message)))
        }
    }
}
