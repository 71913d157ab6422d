import ArgumentParser

/// `--input-ipc-server PATH` (alias `--ipc-socket`): the control socket (docs/CLI.md, "Control
/// socket"). Parsed by ArgumentParser on the main thread; a plain value.
struct ControlOptions: ParsableArguments {
    @Option(name: [.customLong("input-ipc-server"), .customLong("ipc-socket")], help: ArgumentHelp(
        "Serve gstplay's JSON protocol and mpv's JSON IPC on this Unix socket.",
        valueName: "path"))
    var inputIPCServer: String?

    /// The socket path; an empty one is a usage error (exit 2). Every other fault of the path —
    /// over 107 bytes included — is found when the socket is made (exit 4, docs/CLI.md).
    func path() throws -> String? {
        guard let path = inputIPCServer else { return nil }
        guard !path.isEmpty else { throw ValidationError("--input-ipc-server needs a path") }
        return path
    }
}
