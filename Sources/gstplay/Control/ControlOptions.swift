import ArgumentParser

/// `--input-ipc-server PATH` (alias `--ipc-socket`): the control socket (docs/CLI.md, "Control
/// socket"). Parsed by ArgumentParser on the main thread; a plain value.
struct ControlOptions: ParsableArguments {
    @Option(name: [.customLong("input-ipc-server"), .customLong("ipc-socket")], help: ArgumentHelp(
        "Serve gstplay's JSON protocol and mpv's JSON IPC on this Unix socket.",
        valueName: "path"))
    var inputIPCServer: String?

    /// The socket path, checked for what can be checked before binding (empty, too long).
    func path() throws -> String? {
        guard let path = inputIPCServer else { return nil }
        guard !path.isEmpty, path.utf8.count <= 107 else {
            throw ValidationError("--input-ipc-server needs a path of 1 to 107 bytes (a Unix socket address holds no more)")
        }
        return path
    }
}
