import ArgumentParser
import Backend
import BackendControl

/// What the command line asks of casting: list the renderers, cast to one, where to
/// look. A plain value; any thread.
struct CastRunSettings: Equatable, Sendable {
    /// `--list-renderers`: discover for ``discoverSeconds``, print the renderers, exit.
    var listRenderers = false
    /// `--cast NAME|UDN|auto`: cast the items to this renderer once it is found.
    var target: CastTarget?
    /// `--cast-interface IFACE` (repeatable): discover only there; nil for every interface.
    var interfaces: [String]?
    /// `--discover-time SECONDS`: how long `--list-renderers` listens (default 3) and `--cast`
    /// waits for its renderer (default 8); nil when not given.
    var discoverTime: Int?
    /// How long `--list-renderers` listens.
    var discoverSeconds: Int { discoverTime ?? 3 }

    /// The cast feature's options for these settings.
    var castSettings: CastSettings {
        var settings = CastSettings(interfaces: interfaces)
        settings.findTimeout = .seconds(discoverTime ?? 8)
        return settings
    }
}

/// `--list-renderers`, `--cast`, `--cast-interface`, `--discover-time` (docs/CLI.md, "Casting").
/// Parsed by ArgumentParser on the main thread; a plain value.
struct CastOptions: ParsableArguments {
    @Flag(name: .customLong("list-renderers"), help: "List the UPnP/DLNA renderers found within --discover-time and exit (6: none).")
    var listRenderers = false

    @Option(name: .customLong("cast"), help: ArgumentHelp(
        "Play on a UPnP/DLNA renderer (TV, receiver, Kodi, gmediarender…): its name, its UDN (uuid:…) or auto (the first found).",
        valueName: "name|udn|auto"))
    var cast: String?

    @Option(name: .customLong("cast-interface"), help: ArgumentHelp(
        "Look for renderers only on this network interface (or address); repeatable.", valueName: "iface"))
    var castInterfaces: [String] = []

    @Option(name: .customLong("discover-time"), help: ArgumentHelp(
        "How long to look for renderers (1-60; default 3, 8 with --cast).", valueName: "seconds"))
    var discoverTime: Int?

    /// The checked settings; throws `ValidationError` (exit code 2).
    func settings() throws -> CastRunSettings {
        var settings = CastRunSettings()
        settings.listRenderers = listRenderers
        if let cast {
            let trimmed = cast.trimmingWhitespace()
            guard !trimmed.isEmpty else { throw ValidationError("--cast needs a renderer name, a UDN (uuid:…) or auto") }
            if listRenderers { throw ValidationError("--list-renderers and --cast cannot be used together") }
            settings.target = CastTarget(parsing: trimmed)
        }
        let interfaces = castInterfaces.map { $0.trimmingWhitespace() }
        if interfaces.contains(where: \.isEmpty) { throw ValidationError("--cast-interface needs an interface name or address") }
        settings.interfaces = interfaces.isEmpty ? nil : interfaces
        if let discoverTime, !(1...60).contains(discoverTime) {
            throw ValidationError("--discover-time must be between 1 and 60 seconds (got \(discoverTime))")
        }
        settings.discoverTime = discoverTime
        return settings
    }
}
