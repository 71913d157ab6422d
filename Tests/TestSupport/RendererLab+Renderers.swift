import Foundation
import XCTest

/// A renderer a ``RendererLab`` started in its namespace: Debian's `gmediarender` or Rygel with
/// only its playbin renderer plugin. Both play through clock-synchronised fake sinks (real time,
/// no device). Its output (gmediarender's log, Rygel's messages) is kept in ``log``. Any thread.
public final class LabRenderer: @unchecked Sendable {
    /// Which program.
    public enum Kind: String, Sendable { case gmediarender, rygel }

    /// Which program this is.
    public let kind: Kind
    /// Its `friendlyName` (the name the test gave gmediarender; Rygel's own, see
    /// ``RendererLab/startRygel(timeout:)``), from its device description.
    public private(set) var friendlyName: String
    /// Its UDN (`uuid:…`), known once it answered an SSDP search.
    public private(set) var udn = ""
    /// Its device description URL, known once it answered an SSDP search.
    public private(set) var location = ""
    /// The running program (its pid: `process.process.processIdentifier`).
    public let process: GstplayProcess

    init(kind: Kind, friendlyName: String, process: GstplayProcess) {
        self.kind = kind
        self.friendlyName = friendlyName
        self.process = process
    }

    /// Everything the renderer wrote so far (stdout, then stderr).
    public var log: String { process.stdout + process.stderr }

    /// Whether the program still runs.
    public var isRunning: Bool { process.process.isRunning }

    /// Waits until its log contains `text` (gmediarender logs `TransportState: PLAYING`).
    @discardableResult
    public func waitForLog(containing text: String, timeout: TimeInterval = 10) -> Bool {
        process.waitFor(timeout: timeout) { out, err in out.contains(text) || err.contains(text) }
    }

    /// SIGKILL (no SSDP byebye: a renderer that vanishes) and waits for it. Idempotent.
    public func kill() {
        guard isRunning else { return }
        Foundation.kill(process.process.processIdentifier, SIGKILL)
        process.process.waitUntilExit()
    }

    /// SIGSTOP: the renderer stays on the network but answers nothing (a hung device); its
    /// calls time out. ``thaw()``, ``kill()`` and the lab's teardown end that (SIGKILL works on it).
    public func freeze() { Foundation.kill(process.process.processIdentifier, SIGSTOP) }

    /// SIGCONT after ``freeze()``.
    public func thaw() { Foundation.kill(process.process.processIdentifier, SIGCONT) }

    /// SIGTERM (a clean exit, with byebye where the program sends one), SIGKILL after `grace`.
    /// Returns false when it had to be killed (then no byebye went out): the byebye tests assert
    /// it, so a renderer that ignores SIGTERM (it had SIGTERM blocked, `LabSpawner`) says so.
    /// 10 s (was 3): with SIGTERM unblocked, gmediarender once took over 5 s to exit in a TSan run
    /// after the cast tests (2026-11-25 19:50; ~0.4 s alone).
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) -> Bool {
        guard isRunning else { return true }
        Foundation.kill(process.process.processIdentifier, SIGTERM)
        let exited = eventually(timeout: grace, interval: .milliseconds(50)) { !self.isRunning }
        if !exited { kill() }
        process.process.waitUntilExit()
        return exited
    }

    func found(udn: String, location: String, friendlyName: String) {
        self.udn = udn
        self.location = location
        self.friendlyName = friendlyName
    }
}

public extension RendererLab {
    /// Element ranks that leave `autoaudiosink`/`autovideosink` nothing real to pick, so they
    /// fall back to a clock-synchronised `fakesink` (Rygel's playbin has no sink setting; a
    /// real sink on this headless machine ends the renderer).
    static let fakeSinkRanks = ["waylandsink", "gtkwaylandsink", "glimagesink", "glimagesinkelement", "xvimagesink",
                                "ximagesink", "kmssink", "fbdevsink", "vulkansink", "dfbvideosink", "aasink", "cacasink",
                                "v4l2sink", "decklinkvideosink", "pulsesink", "alsasink", "jackaudiosink", "openalsink",
                                "oss4sink", "osssink", "decklinkaudiosink", "pipewiresink", "sdlvideosink"]
        .map { "\($0):0" }.joined(separator: ",")

    /// Starts `gmediarender` named `name` on the renderers' interface (fake sinks with
    /// `sync=true`, its log on stderr) and waits until it answers an SSDP search.
    func startGMediaRender(name: String, timeout: TimeInterval = 15) throws -> LabRenderer {
        let uuid = UUID().uuidString.lowercased()
        let arguments = ["gmediarender", "-I", rendererInterface, "-f", name, "-u", uuid,
                         "--gstout-audiopipe", "fakesink sync=true", "--gstout-videopipe", "fakesink sync=true",
                         "--logfile", "stderr"]
        let renderer = try start(.gmediarender, name: name, arguments: arguments, environment: nil, timeout: timeout) { found, _ in
            found.udn == "uuid:\(uuid)"
        }
        // Its first NOTIFY goes out before libupnp finished registering: a subscription made then
        // got no events (cast-upnp's LastChange test, in parallel runs). This line comes after.
        guard renderer.waitForLog(containing: "Ready for rendering.", timeout: timeout) else {
            renderer.kill()
            throw NSError(domain: "RendererLab", code: 3, userInfo: [NSLocalizedDescriptionKey: "gmediarender '\(name)' never said it was ready:\n\(renderer.log)"])
        }
        return renderer
    }

    /// Starts Rygel with only the playbin renderer plugin, bound to the renderers' interface,
    /// with a configuration file and XDG directories of its own under ``directory`` and no
    /// D-Bus session (it needs none), and waits until it answers an SSDP search. Its name is
    /// Rygel's own, `Audio/Video playback on <hostname>`: Rygel 0.42's playbin plugin ignored
    /// both `title=` in its section and `--title Playbin:NAME` when tried; one Rygel per lab.
    func startRygel(timeout: TimeInterval = 20) throws -> LabRenderer {
        let home = directory.appendingPathComponent("rygel-\(UUID().uuidString.prefix(8))")
        var environment = ProcessInfo.processInfo.environment
        for (variable, sub) in [("HOME", ""), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                                ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "runtime")] {
            let path = sub.isEmpty ? home : home.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[variable] = path.path
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["GST_PLUGIN_FEATURE_RANK"] = Self.fakeSinkRanks
        let config = home.appendingPathComponent("rygel.conf")
        let disabled = ["MediaExport", "Tracker", "Tracker3", "LMS", "GstLaunch", "MPRIS", "External", "Ruih"]
        let text = """
            [general]
            ipv6=false
            enable-transcoding=false
            media-engine=librygel-media-engine-gst.so
            interface=\(rendererInterface)
            port=0
            log-level=*:4
            allow-upload=false
            allow-deletion=false
            acl-fallback-policy=true

            [Playbin]
            enabled=true

            """ + disabled.map { "[\($0)]\nenabled=false\n" }.joined(separator: "\n")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let arguments = ["rygel", "-c", config.path, "-n", rendererInterface, "-d", "MediaExport"]
        return try start(.rygel, name: "Rygel", arguments: arguments, environment: environment, timeout: timeout) { _, model in
            model == "Rygel"
        }
    }

    private func start(_ kind: LabRenderer.Kind, name: String, arguments: [String], environment: [String: String]?,
                       timeout: TimeInterval, matches: (Found, String?) -> Bool) throws -> LabRenderer {
        let line = rendererCommand(["setpriv", "--pdeathsig", "KILL", "--"] + arguments)
        let child = GstplayProcess.tool(line[0], Array(line.dropFirst()), environment: environment, input: .devNull)
        let renderer = LabRenderer(kind: kind, friendlyName: name, process: child)
        register(renderer)
        // Searching before the renderer starts (a search a second until it answers): an answer
        // comes as soon as it listens. The loop ends when its standard input closes.
        let search = clientCommand([ExternalTools.venvDirectory + "/python3", Self.searchLoopScript.path,
                                    clientAddress, Self.mediaRenderer, String(Int(timeout) + 1)])
        let discover = try GstplayProcess.tool(search[0], Array(search.dropFirst()), input: .pipe).started()
        defer { discover.closeInput(); _ = discover.waitForExit(timeout: 10) }
        try LabSpawner.shared.start(child)
        let deadline = Date().addingTimeInterval(timeout)
        var others: Set<String> = []   // described, and not the one started
        while Date() < deadline && renderer.isRunning {
            discover.waitFor(timeout: 0.5) { out, _ in Self.parseFound(out).contains { !others.contains($0.udn) } }
            for candidate in Self.parseFound(discover.stdout) where !others.contains(candidate.udn) {
                guard let description = describe(candidate.location) else { continue }   // not serving yet: again
                guard matches(candidate, description.modelName) else { others.insert(candidate.udn); continue }
                renderer.found(udn: candidate.udn, location: candidate.location, friendlyName: description.friendlyName)
                return renderer
            }
        }
        renderer.kill()
        throw NSError(domain: "RendererLab", code: 2, userInfo: [NSLocalizedDescriptionKey:
            "\(kind.rawValue) '\(name)' did not answer an SSDP search within \(timeout) s; its log:\n\(renderer.log)"])
    }

    /// One MediaRenderer an SSDP search found.
    struct Found: Sendable, Equatable {
        /// `uuid:…`.
        public var udn: String
        /// The device description URL.
        public var location: String
    }

    /// The search target every lab search asks for.
    static let mediaRenderer = "urn:schemas-upnp-org:device:MediaRenderer:1"

    /// `ssdp_search_loop.py` (next to this file): async-upnp-client's search once a second from
    /// one long-lived process.
    static let searchLoopScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ssdp_search_loop.py")

    /// `upnp-client search` (PyPI's async-upnp-client, in the test venv) bound to the client
    /// address, for MediaRenderers, listening `seconds` for answers: one JSON object of headers a line.
    func searchCommand(seconds: Int) -> [String] {
        [Self.upnpClient, "--timeout", String(seconds), "search", "--bind", clientAddress, "--search_target", Self.mediaRenderer]
    }

    /// Searches for `urn:schemas-upnp-org:device:MediaRenderer:1` from the client side with a
    /// control point nobody here wrote (``searchCommand(seconds:)``) for `seconds`; the renderers
    /// that answered, one entry per UDN.
    func searchRenderers(seconds: Int = 1) -> [Found] {
        Self.parseFound(runOnClientSide(searchCommand(seconds: seconds), timeout: TimeInterval(seconds + 10)).stdout)
    }

    /// The renderers in `upnp-client search`'s output (a JSON object of an answer's headers a
    /// line, names in any case), one entry per UDN, in order of appearance.
    internal static func parseFound(_ output: String) -> [Found] {
        var result: [Found] = []
        for line in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            let headers = Dictionary(object.compactMap { key, value in (value as? String).map { (key.lowercased(), $0) } },
                                     uniquingKeysWith: { first, _ in first })
            guard let usn = headers["usn"], let location = headers["location"],
                  let udn = usn.components(separatedBy: "::").first, udn.hasPrefix("uuid:") else { continue }
            if !result.contains(where: { $0.udn == udn }) { result.append(Found(udn: udn, location: location)) }
        }
        return result
    }

    /// ``searchRenderers(seconds:)`` again (2 s each) until `enough` holds for everything found
    /// so far, or `timeout`: an answer comes after a random delay of up to MX seconds and a
    /// busy machine delays it more, so one short search can miss a renderer.
    func searchRenderers(timeout: TimeInterval = 12, until enough: ([Found]) -> Bool) -> [Found] {
        var seen: [Found] = []
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            for found in searchRenderers(seconds: 2) where !seen.contains(found) { seen.append(found) }
        } while !enough(seen) && Date() < deadline
        return seen
    }

    /// The friendly name and model name in the device description at `location`, fetched from
    /// the client side (nil when it cannot be read).
    func describe(_ location: String) -> (friendlyName: String, modelName: String?)? {
        let script = "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())"
        let xml = runOnClientSide(["python3", "-c", script, location]).stdout
        func element(_ name: String) -> String? {
            guard let start = xml.range(of: "<\(name)>"), let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex) else { return nil }
            return String(xml[start.upperBound..<end.lowerBound])
        }
        return element("friendlyName").map { ($0, element("modelName")) }
    }
}
