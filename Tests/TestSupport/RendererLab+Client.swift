import Foundation

/// A control point nobody on this project wrote, to read and drive a lab renderer beside
/// gstplay: `upnp-client` from PyPI's `async-upnp-client` (installed by `make test` into
/// `.build/test-venv`), run on the lab's client side. Any thread; each call is a process
/// (about 0.5 s).
public extension RendererLab {
    /// The venv's `upnp-client` (`make test-venv`).
    static let upnpClient = TestMedia.root.appendingPathComponent(".build/test-venv/bin/upnp-client").path

    /// A renderer's answer or fault.
    struct ActionError: Error, CustomStringConvertible {
        /// `upnp-client`'s last line of complaint (e.g. `… upnp error: 714 (Illegal MIME-type)`).
        public var description: String
    }

    /// Calls `action` (`"AVTransport/Play"`) on the renderer with `arguments` (`InstanceID=0`
    /// added for AVTransport and RenderingControl); its out-arguments.
    @discardableResult
    func call(_ renderer: LabRenderer, _ action: String, _ arguments: [String: String] = [:]) throws -> [String: Any] {
        var all = arguments
        if !action.hasPrefix("ConnectionManager/") && all["InstanceID"] == nil { all["InstanceID"] = "0" }
        if action.hasPrefix("RenderingControl/") && all["Channel"] == nil && action != "RenderingControl/ListPresets" { all["Channel"] = "Master" }
        let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = runOnClientSide([Self.upnpClient, "--timeout", "10", "call-action", renderer.location, action] + pairs, timeout: 25)
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard result.status == 0, let object = jsonObject(line), let out = object["out_parameters"] as? [String: Any] else {
            let complaint = result.stderr.split(separator: "\n").last.map(String.init) ?? "no output (status \(String(describing: result.status)))"
            throw ActionError(description: "\(action): \(complaint)")
        }
        return out
    }

    /// `AVTransport/GetTransportInfo`'s `CurrentTransportState` (`PLAYING`, `PAUSED_PLAYBACK`,
    /// `STOPPED`, `NO_MEDIA_PRESENT`…), nil when the renderer does not answer.
    func transportState(_ renderer: LabRenderer) -> String? {
        (try? call(renderer, "AVTransport/GetTransportInfo"))?["CurrentTransportState"] as? String
    }

    /// Waits until `renderer` reports a duration for its item: its pipeline really plays.
    /// gmediarender answers `GetPositionInfo` from its pipeline only while that is PLAYING
    /// (`output_gstreamer_get_position`) and repeats the last answer otherwise, so a pause that
    /// comes before leaves it reporting 0 for good, whatever is sought (seen in isolated runs).
    func waitUntilRendering(_ renderer: LabRenderer, timeout: Duration = .seconds(10)) -> Bool {
        eventually(timeout: timeout, interval: .milliseconds(100)) { (self.positionInfo(renderer)?.duration ?? 0) > 0 }
    }

    /// `AVTransport/GetPositionInfo`: the position and duration in seconds, and the track URI.
    func positionInfo(_ renderer: LabRenderer) -> (position: Double, duration: Double, uri: String)? {
        guard let out = try? call(renderer, "AVTransport/GetPositionInfo") else { return nil }
        return (Self.seconds(out["RelTime"] as? String) ?? -1, Self.seconds(out["TrackDuration"] as? String) ?? -1,
                out["TrackURI"] as? String ?? "")
    }

    /// `RenderingControl/GetVolume` (0…100).
    func volume(_ renderer: LabRenderer) -> Int? {
        (try? call(renderer, "RenderingControl/GetVolume"))?["CurrentVolume"] as? Int
    }

    /// `RenderingControl/GetMute`.
    func isMuted(_ renderer: LabRenderer) -> Bool? {
        guard let value = (try? call(renderer, "RenderingControl/GetMute"))?["CurrentMute"] else { return nil }
        return (value as? Bool) ?? (value as? Int).map { $0 != 0 } ?? (value as? String).map { $0 == "1" || $0 == "true" }
    }

    /// Hands `uri` to the renderer (empty metadata) and plays it: what a control point does.
    func play(_ uri: String, on renderer: LabRenderer) throws {
        try call(renderer, "AVTransport/SetAVTransportURI", ["CurrentURI": uri, "CurrentURIMetaData": ""])
        try call(renderer, "AVTransport/Play", ["Speed": "1"])
    }

    /// Waits until the renderer's transport state is `state` (polled: no event tells a test).
    @discardableResult
    func waitForTransportState(_ state: String, on renderer: LabRenderer, timeout: Duration = .seconds(15)) -> Bool {
        eventually(timeout: timeout, interval: .milliseconds(200)) { transportState(renderer) == state }
    }

    /// `H:MM:SS[.fff]` in seconds (nil for `NOT_IMPLEMENTED` and the like).
    static func seconds(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: ":"), parts.count == 3,
              let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }
}
