import ArgumentParser
import Glibc
import BackendControl
import HTTPServe
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--remote[=PORT]` (or `--remote PORT`), `--remote-bind ADDR`, `--remote-token-file FILE` (docs/CLI.md, "Web remote").
/// Parsed by ArgumentParser on the main thread; a plain value.
struct RemoteOptions: ParsableArguments {
    /// The hidden option `--remote=PORT` becomes (``FlagValueRewrite``).
    static let hiddenPortName = "remote-port"

    @Flag(name: .customLong("remote"), help: ArgumentHelp(
        "Serve a web remote on 127.0.0.1 (--remote PORT picks the port); its URL goes to stderr."))
    var remote = false

    @Option(name: .customLong(hiddenPortName), help: .hidden)
    var remotePort: String?

    @Option(name: .customLong("remote-bind"), help: ArgumentHelp(
        "Listen on this IP address instead of 127.0.0.1 (the network can then reach the remote; a warning says so).",
        valueName: "addr"))
    var remoteBind: String?

    @Option(name: .customLong("remote-token-file"), help: ArgumentHelp(
        "Read the remote's token from this file instead of making a fresh random one.", valueName: "file"))
    var remoteTokenFile: String?

    /// The settings, or nil without `--remote`; throws `ValidationError` (exit 2) for a bad
    /// port, a bind or token file without `--remote`, a token file others may read or another
    /// user owns (``exposure(ofTokenFile:)``), or an unreadable/empty token file.
    func settings() throws -> RemoteSettings? {
        guard remote || remotePort != nil else {
            if remoteBind != nil { throw ValidationError("--remote-bind needs --remote") }
            if remoteTokenFile != nil { throw ValidationError("--remote-token-file needs --remote") }
            return nil
        }
        var settings = RemoteSettings()
        if let remotePort {
            guard let port = UInt16(remotePort) else {
                throw ValidationError("--remote=PORT needs a port number 0 to 65535 (got '\(remotePort)')")
            }
            settings.port = port
        }
        if let remoteBind {
            guard !remoteBind.isEmpty else { throw ValidationError("--remote-bind needs an IP address") }
            settings.bind = remoteBind
        }
        if let remoteTokenFile {
            if let problem = Self.exposure(ofTokenFile: remoteTokenFile) { throw ValidationError("--remote-token-file: \(problem)") }
            guard let data = FileManager.default.contents(atPath: remoteTokenFile) else {
                throw ValidationError("--remote-token-file: cannot read '\(remoteTokenFile)'")
            }
            let token = AccessToken(String(decoding: data, as: UTF8.self)).text
            guard token.count >= 16, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ValidationError("--remote-token-file: the token must be 16 or more letters, digits, '-' or '_'")
            }
            settings.token = token
        }
        return settings
    }

    /// Why the token file at `path` is not private, or nil: like ssh with a key, a token that
    /// the group or others may read (any of the mode's 077 bits) or that another user owns is
    /// refused, since whoever reads it controls the player. A missing file: nil (the read then
    /// says so).
    static func exposure(ofTokenFile path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_uid != getuid() { return "'\(path)' belongs to another user (uid \(info.st_uid)); the token file must be yours" }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            return "'\(path)' may be read by others (mode \(String(mode, radix: 8))); make it private: chmod 600 '\(path)'"
        }
        return nil
    }
}
