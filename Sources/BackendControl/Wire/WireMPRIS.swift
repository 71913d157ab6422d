import Backend

/// MPRIS's part of the `--json` protocol: the `mpris` event (`MPRISEvent`). Pure; any thread.
///
/// `{"event":"mpris","state":"exported","bus_name":"org.mpris.MediaPlayer2.gstplay.instance42"}`,
/// `{"event":"mpris","state":"unavailable","reason":"…"}`, `{"event":"mpris","state":"quit-requested"}`.
public enum WireMPRIS {
    /// The `mpris` event's fields.
    public struct Fields: Encodable, Sendable {
        package var state: String
        package var busName: String?
        package var reason: String?

        package enum CodingKeys: String, CodingKey { case state, busName = "bus_name", reason }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(state, forKey: .state)
            try container.encode(busName, forKey: .busName)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// The line for an MPRIS event.
    public static func line(for event: MPRISEvent) -> String {
        let fields = switch event {
        case .exported(let busName): Fields(state: "exported", busName: busName)
        case .unavailable(let reason): Fields(state: "unavailable", reason: reason)
        case .quitRequested: Fields(state: "quit-requested")
        }
        return Wire.line(WireEvent(event: "mpris", payload: fields))
    }
}
