import BackendControl
import ArgumentParser
import CGStreamer
import GLibSupport

/// `--input-conf FILE` and `--list-keys`: the key bindings. Parsed by ArgumentParser; any thread.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("input-conf"), help: ArgumentHelp(
        "Key bindings (mpv's input.conf syntax) instead of the config one.", valueName: "file"))
    var inputConf: String?

    @Flag(name: .customLong("list-keys"), help: "Print the built-in input.conf and exit.")
    var listKeys = false

    @Flag(name: .customLong("input-keylist"), help: "Print the key names input.conf knows and exit.")
    var keyList = false
}

/// Loads the key bindings a run uses. Reads a file; any thread.
enum InputConfLoading {
    /// Why the bindings could not be loaded: `--input-conf` names a file that cannot be read.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// The built-in bindings with the user's input.conf over them (`--input-conf`, or `input.conf`
    /// in `directory` — gstplay's config directory, nil for none; a missing default file is no
    /// error), and a warning per bad line.
    static func load(explicit: String?, directory: String?) -> Result<(InputBindings, [String]), Failure> {
        var bindings = InputBindings.builtin
        guard let path = InputBindings.userFile(explicit: explicit, directory: directory) else { return .success((bindings, [])) }
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.read(path, limit: ConfigArguments.fileSizeLimit)
        } catch {
            if explicit != nil { return .failure(Failure(message: "--input-conf: cannot read '\(ConsoleCommand.printable(path))'")) }
            return .success((bindings, []))
        }
        let warnings = bindings.apply(String(decoding: bytes, as: UTF8.self), file: path)
        return .success((bindings, warnings))
    }
}

/// The CLI's side of the library's ``InputBindings``: its terminal and window keys, its config directory.
extension InputBindings {
    /// The binding of a key read from the terminal or the video window (``Key/name``), nil when it
    /// is unbound or bound to `ignore`.
    func binding(for key: Key) -> KeyBinding? {
        binding(forKeyNamed: key.name)
    }

    /// The user's input.conf: `--input-conf FILE` when given, else `input.conf` in gstplay's config
    /// directory (`--config-dir`, or `$XDG_CONFIG_HOME/gstplay`); nil without either (`--no-config`).
    static func userFile(explicit: String?, directory: String?) -> String? {
        explicit ?? directory.map { PathText.appending("input.conf", to: $0) }
    }
}
