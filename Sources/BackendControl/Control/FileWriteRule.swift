import BackendCore
import GLibSupport
import Glibc

/// Which door a command came through (docs/RELIABILITY.md, "Who may write files").
/// A plain value; any thread.
public enum CommandDoor: Sendable, Equatable {
    /// The user at this machine: the stdin console (text or `--json`), the keys, the video
    /// window's keys. Writes where the user names.
    case local
    /// A control client: the mpv IPC socket (`--input-ipc-server`) or the web remote (WebSocket
    /// and HTTP API). Controls playback; writes files only by plain name inside
    /// `--client-write-dir`, or not at all.
    case remote

    /// The door of `client`: the console is local, every other client remote.
    public init(_ client: ControlClientID) { self = client == .console ? .local : .remote }
}

/// What a command does beyond controlling playback, declared by every command (an exhaustive
/// `switch`: a new command does not compile until it says) and checked where commands are
/// dispatched (``FileWriteRule``). A plain value; any thread.
public enum CommandCapability: Sendable, Equatable {
    /// Playback, the queue, tracks, reports: nothing written.
    case controlsPlayback
    /// Writes one file: `command` names it in messages (`snapshot`, `cover`, `playlist save`),
    /// `path` is the argument given (nil: the command's default name in the working directory).
    case writesFile(command: String, path: String?)
}

extension ConsoleCommand {
    /// What this command does beyond playback (see ``CommandCapability``).
    public var capability: CommandCapability {
        switch self {
        case .snapshot(let path, _): .writesFile(command: "snapshot", path: path)
        case .cover(let path): .writesFile(command: "cover", path: path)
        case .queue(.save(let path)): .writesFile(command: "playlist save", path: path)
        case .queue(.list), .queue(.jump), .queue(.remove), .queue(.move), .queue(.clear), .queue(.shuffle), .queue(.loop):
            .controlsPlayback
        case .play, .pause, .toggle, .stop, .seek, .rate, .volume, .mute, .status, .stats, .next, .prev, .load, .help, .quit,
             .variants, .variant, .tracks, .track, .subFile, .subOffset, .audioOffset, .subVisibility, .osd, .chapters, .chapter,
             .renderers, .cast, .abLoop, .frameStep, .cycle, .add, .keys:
            .controlsPlayback
        }
    }

    /// The same file-writing command with `path` as its file; other commands unchanged.
    public func writing(to path: String) -> ConsoleCommand {
        switch self {
        case .snapshot(_, let osd): .snapshot(path, osd: osd)
        case .cover: .cover(path)
        case .queue(.save): .queue(.save(path))
        default: self
        }
    }
}

extension MpvCommand {
    /// What this mpv command does beyond playback: none of the subset writes a file today; a new
    /// one (mpv's `screenshot-to-file`, say) must say so here before it compiles.
    public var capability: CommandCapability {
        switch self {
        case .getProperty, .setProperty, .observe, .unobserve, .clientName, .getVersion, .getTimeMicroseconds,
             .requestLogMessages, .setEvent, .loadFile, .cycle, .add, .seek, .playlistNext, .playlistPrevious, .quit,
             .abLoop, .frameStep, .frameBackStep:
            .controlsPlayback
        }
    }
}

/// The rule "controlling playback does not grant writing files", applied where every command is
/// dispatched (``PlayerControl/dispatch(_:from:)``). The local door writes where the user
/// names. A remote door may write only with `--client-write-dir DIR`, only a plain file name
/// (no `/`, not `.` or `..`) taken inside DIR, and never onto anything but a regular file (an
/// existing symbolic link, directory, FIFO or device there is refused); without a name the
/// command's default name goes into DIR. Every writer also refuses to replace a non-regular file
/// (`AtomicFile/requireReplaceable(_:)`), whatever the door. Pure apart from one `lstat`; any thread.
public struct FileWriteRule: Sendable, Equatable {
    /// `--client-write-dir`, absolute; nil: remote doors may not write files.
    public var clientDirectory: String?

    /// The rule for `--client-write-dir` `clientDirectory` (nil: remote doors write nothing).
    public init(clientDirectory: String? = nil) { self.clientDirectory = clientDirectory }

    /// `command` as it may run from `door`: unchanged, or with its file moved into the client
    /// directory; or why it may not run (the reply's error).
    public func admit(_ command: ConsoleCommand, from door: CommandDoor) -> Result<ConsoleCommand, ConsoleError> {
        guard door == .remote, case .writesFile(let name, let path) = command.capability else { return .success(command) }
        guard let clientDirectory else {
            return .failure(ConsoleError("\(name): refused: control clients may not write files (start gstplay with --client-write-dir DIR to let them write there, by plain file name)"))
        }
        guard let path else { return .success(command.writing(to: clientDirectory)) }
        guard Self.isPlainName(path) else {
            return .failure(ConsoleError("\(name): refused: a control client may only name a file inside --client-write-dir, without '/' (got '\(ConsoleCommand.printable(path))')"))
        }
        let target = PathText.appending(path, to: clientDirectory)
        if let kind = Self.nonRegularKind(target) {
            return .failure(ConsoleError("\(name): refused: '\(ConsoleCommand.printable(path))' in --client-write-dir is \(kind), not a regular file"))
        }
        return .success(command.writing(to: target))
    }

    /// A single path component: not empty, no `/` or NUL, not `.` or `..`, at most 255 bytes.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255 && !name.contains("/") && !name.contains("\0")
    }

    /// What `path` is when it exists and is not a regular file (`lstat`: links are not followed),
    /// e.g. "a symbolic link"; nil when it is missing or a regular file.
    public static func nonRegularKind(_ path: String) -> String? {
        AtomicFile.nonRegularKind(path)
    }
}
