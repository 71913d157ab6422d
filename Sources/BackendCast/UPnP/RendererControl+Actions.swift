import BackendCore
import CGUPnP

/// AVTransport and RenderingControl actions. **Thread:** the loop thread; completions run there.
public extension RendererControl {
    /// `AVTransport:SetAVTransportURI`: the renderer loads `uri`, described by `metadata` as
    /// DIDL-Lite (``CastMetadata/didlLite(uri:)``, GUPnP-AV's `GUPnPDIDLLiteWriter`).
    func setURI(_ uri: String, metadata: CastMetadata, completion: @escaping (Result<Void, CastError>) -> Void) {
        transportCommand("SetAVTransportURI", [("CurrentURI", uri), ("CurrentURIMetaData", metadata.didlLite(uri: uri))],
                         completion: completion)
    }

    /// `AVTransport:SetNextAVTransportURI`: what plays after the current URI (gapless on renderers
    /// that have it; others answer 401 "Invalid Action" or 501, as ``CastError/renderer(code:description:)``).
    func setNextURI(_ uri: String, metadata: CastMetadata, completion: @escaping (Result<Void, CastError>) -> Void) {
        command(avTransport, "SetNextAVTransportURI", [("NextURI", uri), ("NextURIMetaData", metadata.didlLite(uri: uri))],
                completion: completion)
    }

    /// `AVTransport:Play` at normal speed.
    func play(completion: @escaping (Result<Void, CastError>) -> Void) {
        transportCommand("Play", [("Speed", "1")], completion: completion)
    }

    /// `AVTransport:Pause`.
    func pause(completion: @escaping (Result<Void, CastError>) -> Void) {
        transportCommand("Pause", completion: completion)
    }

    /// `AVTransport:Stop`.
    func stop(completion: @escaping (Result<Void, CastError>) -> Void) {
        transportCommand("Stop", completion: completion)
    }

    /// `AVTransport:Seek` with unit `REL_TIME` to `seconds` (sent as `H:MM:SS`, to the nearest second).
    func seek(toSeconds seconds: Double, completion: @escaping (Result<Void, CastError>) -> Void) {
        command(avTransport, "Seek", [("Unit", "REL_TIME"), ("Target", UPnPTime.format(seconds))], completion: completion)
    }

    /// `AVTransport:GetPositionInfo`: position, duration and URI of the track playing.
    func positionInfo(completion: @escaping (Result<PositionInfo, CastError>) -> Void) {
        call(avTransport, "GetPositionInfo", results: ["RelTime", "TrackDuration", "TrackURI"]) { result in
            completion(result.map { values in
                PositionInfo(position: UPnPTime.parse(values["RelTime"]), duration: UPnPTime.parse(values["TrackDuration"]),
                             trackURI: values["TrackURI"].flatMap { $0.isEmpty ? nil : $0 })
            })
        }
    }

    /// `AVTransport:GetTransportInfo`: the transport state and status.
    func transportInfo(completion: @escaping (Result<TransportInfo, CastError>) -> Void) {
        call(avTransport, "GetTransportInfo", results: ["CurrentTransportState", "CurrentTransportStatus"]) { result in
            completion(result.map { values in
                TransportInfo(state: TransportState(values["CurrentTransportState"] ?? ""),
                              status: values["CurrentTransportStatus"] ?? "")
            })
        }
    }

    /// `RenderingControl:SetVolume` on the `Master` channel, `volume` clamped to 0…100.
    func setVolume(_ volume: Int, completion: @escaping (Result<Void, CastError>) -> Void) {
        command(renderingControl, "SetVolume", [("Channel", "Master"), ("DesiredVolume", String(min(max(volume, 0), 100)))],
                completion: completion)
    }

    /// `RenderingControl:GetVolume` on the `Master` channel (0…100).
    func volume(completion: @escaping (Result<Int, CastError>) -> Void) {
        call(renderingControl, "GetVolume", [("Channel", "Master")], results: ["CurrentVolume"]) { result in
            completion(result.flatMap { values in
                Int(values["CurrentVolume"] ?? "").map { .success($0) } ?? .failure(.transport("unreadable CurrentVolume"))
            })
        }
    }

    /// `RenderingControl:SetMute` on the `Master` channel.
    func setMute(_ muted: Bool, completion: @escaping (Result<Void, CastError>) -> Void) {
        command(renderingControl, "SetMute", [("Channel", "Master"), ("DesiredMute", muted ? "1" : "0")], completion: completion)
    }
}

/// What `GetPositionInfo` answered. Times in seconds; nil when the renderer does not know
/// (`NOT_IMPLEMENTED`, empty).
public struct PositionInfo: Sendable, Hashable {
    /// `RelTime`: the position in the track.
    public var position: Double?
    /// `TrackDuration`.
    public var duration: Double?
    /// `TrackURI`, nil when empty.
    public var trackURI: String?
    /// A position report.
    public init(position: Double?, duration: Double?, trackURI: String?) {
        self.position = position
        self.duration = duration
        self.trackURI = trackURI
    }
}

/// What `GetTransportInfo` answered.
public struct TransportInfo: Sendable, Hashable {
    /// `CurrentTransportState`.
    public var state: TransportState
    /// `CurrentTransportStatus` (`OK`, `ERROR_OCCURRED`).
    public var status: String
    /// A transport report.
    public init(state: TransportState, status: String) {
        self.state = state
        self.status = status
    }
}

/// An AVTransport `TransportState`.
public enum TransportState: Sendable, Hashable {
    /// `STOPPED` (also at the end of the track).
    case stopped
    /// `PLAYING`.
    case playing
    /// `PAUSED_PLAYBACK`.
    case paused
    /// `TRANSITIONING` (loading, seeking).
    case transitioning
    /// `NO_MEDIA_PRESENT`.
    case noMedia
    /// Anything else the renderer said (`RECORDING`, vendor states).
    case other(String)

    /// The state named by the UPnP string.
    public init(_ text: String) {
        switch text {
        case "STOPPED": self = .stopped
        case "PLAYING": self = .playing
        case "PAUSED_PLAYBACK": self = .paused
        case "TRANSITIONING": self = .transitioning
        case "NO_MEDIA_PRESENT": self = .noMedia
        default: self = .other(text)
        }
    }
}
