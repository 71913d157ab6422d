import Backend

/// Casting's part of the `--json` protocol: the `renderers`, `cast-started`,
/// `cast-ended` and `cast-failed` events (`CastEvent`) and the `renderers` / `cast` replies.
/// Pure; any thread.
public enum WireCast {
    /// One renderer: `{"index":0,"name":"Living room","udn":"uuid:…","model":"gmediarender",…}`.
    public struct Entry: Encodable, Sendable, Equatable {
        /// The renderer's place in the list (what `cast N` takes).
        public var index: Int
        /// Its friendly name.
        public var name: String
        /// Its unique device name.
        public var udn: String
        /// Its model (null: not said).
        @Nullable public var model: String?
        /// Its device description's URL.
        public var location: String
        /// The address it was found at.
        public var hostAddress: String
        /// The protocols it plays (its sink protocol info).
        public var protocols: [String]

        /// The fields of `renderer`, at `index`.
        public init(_ renderer: Renderer, index: Int) {
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
        /// The renderers found.
        public var renderers: [Entry]
        /// The UDN of the renderer cast to (null: playing here).
        @Nullable public var casting: String?
        /// The fields of `renderers`, with the one `casting` to.
        public init(_ renderers: [Renderer], casting: Renderer?) {
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
