import ArgumentParser
import Backend
import BackendControl
import CGStreamer

/// `--network-timeout`, `--cache[=on|off|offline]` / `--no-cache`, `--cache-revalidate`,
/// `--cache-dir`, `--cache-size`: the network
/// policy and the media cache from the command line. Parsed by ArgumentParser; any thread.
struct NetworkOptions: ParsableArguments {
    @Option(name: .customLong("network-timeout"), help: ArgumentHelp(
        "Seconds without data before a network read (or a live source) fails.",
        valueName: "seconds"))
    var networkTimeout: Int = 15

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Play http(s) downloads from the media cache next time (--cache=offline: never revalidate)."))
    var cache = true

    /// `--cache=on|off|offline`, rewritten to this hidden option before parsing (``FlagValueRewrite``).
    @Option(name: .customLong(NetworkOptions.hiddenModeName), help: .hidden)
    var cacheMode: String?

    @Option(name: .customLong("cache-revalidate"), help: ArgumentHelp(
        "Seconds a cached copy plays before the server is asked again (default 3600).", valueName: "seconds"))
    var cacheRevalidate: Int?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "Media cache directory (default $XDG_CACHE_HOME/gstplay/media).", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .customLong("cache-size"), help: ArgumentHelp(
        "Media cache size limit in bytes (suffix k, M or G: 500M; default 2G); least recently used files go first.",
        valueName: "bytes"))
    var cacheSize: String?

    /// The settings these options ask for; `ValidationError` (exit 2) for bad values.
    func settings() throws -> NetworkSettings {
        guard (1...3600).contains(networkTimeout) else {
            throw ValidationError("--network-timeout must be between 1 and 3600 seconds (got \(networkTimeout))")
        }
        var settings = NetworkSettings(timeoutSeconds: networkTimeout)
        if let cacheDirectory {
            guard !cacheDirectory.trimmingWhitespace().isEmpty else { throw ValidationError("--cache-dir needs a directory") }
            settings.cacheDirectory = cacheDirectory
        }
        if let cacheSize {
            guard let bytes = Self.size(cacheSize), bytes > 0 else {
                throw ValidationError("--cache-size must be a positive number of bytes such as 500000000, 500M or 2G (got '\(cacheSize)')")
            }
            settings.cacheSize = bytes
        }
        settings.cacheEnabled = cache
        switch cacheMode?.lowercased() {
        case nil, "on": break
        case "off": settings.cacheEnabled = false
        case "offline": settings.cacheOffline = true
        case let other?: throw ValidationError("--cache must be on, off or offline (got '\(other)')")
        }
        if let cacheRevalidate {
            guard cacheRevalidate >= 0 else { throw ValidationError("--cache-revalidate must be 0 or more seconds (got \(cacheRevalidate))") }
            settings.cacheRevalidateSeconds = Double(cacheRevalidate)
        }
        return settings
    }

    static let hiddenModeName = "cache-mode"


    /// `1000`, `500k`, `500M`, `2G` (powers of 1024) → bytes; nil for anything else, a size of
    /// `Int64.max` bytes or more, and the forms `Double.init` would take (`nan`, `inf`, `1e3`, `0x10`).
    static func size(_ text: String) -> Int64? {
        var digits = Substring(text.trimmingWhitespace())
        var scale: Double = 1
        switch digits.last {
        case "k", "K": scale = 1024; digits = digits.dropLast()
        case "m", "M": scale = 1024 * 1024; digits = digits.dropLast()
        case "g", "G": scale = 1024 * 1024 * 1024; digits = digits.dropLast()
        default: break
        }
        guard let value = StrictNumber.unsigned(String(digits)), value > 0, value * scale < Double(Int64.max) else { return nil }
        return Int64((value * scale).rounded())
    }
}

/// The validated network and cache settings (part of ``RunOptions``).
struct NetworkSettings: Equatable, Sendable {
    var timeoutSeconds = 15
    var cacheEnabled = true
    /// nil: the default XDG location.
    var cacheDirectory: String?
    var cacheSize = MediaCache.defaultSizeLimit
    /// `--cache=offline`: never revalidate.
    var cacheOffline = false
    /// `--cache-revalidate`.
    var cacheRevalidateSeconds = MediaCache.defaultRevalidateInterval

    /// The cache these settings ask for, nil with `--no-cache`.
    var cache: MediaCache? {
        cacheEnabled ? MediaCache(directory: cacheDirectory ?? Self.defaultCacheDirectory(), sizeLimit: cacheSize,
                                  revalidateInterval: cacheRevalidateSeconds, offline: cacheOffline) : nil
    }

    /// `g_get_user_cache_dir()/gstplay/media` (`$XDG_CACHE_HOME`, else `~/.cache`): the media
    /// cache's directory without `--cache-dir`.
    static func defaultCacheDirectory() -> String {
        (String(validatingCString: g_get_user_cache_dir()) ?? "/tmp") + "/gstplay/media"
    }

    /// Sets the network timeout on `configuration`.
    func apply(to configuration: inout PlayerConfiguration) {
        configuration.networkTimeout = .seconds(timeoutSeconds)
    }

    /// Sets the media cache on `standard`.
    func apply(to standard: inout StandardFeatures) {
        standard.cache = cache
    }
}
