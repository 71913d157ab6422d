import BackendControl
import ArgumentParser
import BackendCore
import CGStreamer

/// `--client-write-dir DIR`: the one directory where control clients (the control socket, the web
/// remote) may write files — `playlist save`, `snapshot`, `cover` — by plain file name
/// (``FileWriteRule``, docs/RELIABILITY.md "Who may write files"). Without it they may not write
/// files at all. Parsed by ArgumentParser on the main thread; a plain value.
struct ClientFileOptions: ParsableArguments {
    @Option(name: .customLong("client-write-dir"), help: ArgumentHelp(
        "The only directory control clients (socket, web remote) may write files in.",
        valueName: "dir"))
    var clientWriteDir: String?

    /// The directory made absolute (`g_canonicalize_filename`), nil when not given; throws
    /// `ValidationError` (exit 2) when it is empty or not an existing directory, or when no
    /// control client can connect (neither `--input-ipc-server` nor `--remote`).
    func directory(hasClients: Bool) throws -> String? {
        guard let clientWriteDir else { return nil }
        guard hasClients else { throw ValidationError("--client-write-dir needs --input-ipc-server or --remote") }
        guard !clientWriteDir.isEmpty else { throw ValidationError("--client-write-dir needs a directory") }
        guard PathText.isDirectory(clientWriteDir) else {
            throw ValidationError("--client-write-dir: '\(clientWriteDir)' is not an existing directory")
        }
        return String(takingGLibString: g_canonicalize_filename(clientWriteDir, nil)) ?? clientWriteDir
    }
}
