import Backend
import BackendControl
import FoundationEssentials
import GLibSupport
import Glibc
import Synchronization

// Single-key control on a TTY, like gst-play's gst-play-kb.c: the terminal goes into a
// non-canonical, no-echo mode (`tcsetattr`), a reader thread turns bytes into keys (arrows
// arrive as escape sequences), and the keys map to actions. The terminal is always restored:
// by the app on exit, by the signal path, and by an `atexit` handler as the last resort.

/// A key press decoded from terminal input. A plain value; made on the key reader thread.
enum Key: Equatable, Sendable {
    /// A printable ASCII character (including space).
    case character(Character)
    case up, down, left, right
    /// Page Up / Page Down (`ESC [ 5 ~` / `ESC [ 6 ~`).
    case pageUp, pageDown
    /// Any other key, by its canonical input.conf name (``KeyName/canonical(_:)``): `ENTER`,
    /// `Ctrl+a`, `Alt+x`, `HOME`, `MBTN_LEFT`, `WHEEL_UP`…
    case named(String)

    /// The key's canonical input.conf name (`SPACE`, `a`, `LEFT`, `PGDWN`, `Ctrl+a`).
    var name: String {
        switch self {
        case .character(let character): KeyName.canonical(String(character)) ?? String(character)
        case .up: "UP"
        case .down: "DOWN"
        case .left: "LEFT"
        case .right: "RIGHT"
        case .pageUp: "PGUP"
        case .pageDown: "PGDWN"
        case .named(let name): name
        }
    }
}

/// Turns terminal bytes into ``Key``s, keeping incomplete escape sequences for the next read.
/// Pure; used on the key reader thread.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Decodes `bytes` (appended to anything left over from the previous call).
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        scan: while index < pending.count {
            let byte = pending[index]
            guard byte == 0x1B else {
                if let key = Self.plain(byte) { keys.append(key) }
                index += 1
                continue
            }
            // ESC [ params final   or   ESC O final
            guard index + 1 < pending.count else { break scan }          // wait for more
            let introducer = pending[index + 1]
            guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
                if introducer >= 0x21 && introducer < 0x7F {                  // ESC x: Alt+x
                    keys.append(.named("Alt+" + (KeyName.canonical(String(Unicode.Scalar(introducer))) ?? "")))
                    index += 2
                } else {
                    index += 1                                            // a lone ESC: drop it
                }
                continue
            }
            var end = index + 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
            guard end < pending.count else {
                if end - index > 16 { index = end; continue }            // runaway sequence: drop
                break scan
            }
            switch pending[end] {
            case UInt8(ascii: "A"): keys.append(.up)
            case UInt8(ascii: "B"): keys.append(.down)
            case UInt8(ascii: "C"): keys.append(.right)
            case UInt8(ascii: "D"): keys.append(.left)
            case UInt8(ascii: "H"): keys.append(.named("HOME"))
            case UInt8(ascii: "F"): keys.append(.named("END"))
            case UInt8(ascii: "~"):
                switch String(decoding: pending[(index + 2)..<end], as: UTF8.self) {
                case "1", "7": keys.append(.named("HOME"))
                case "2": keys.append(.named("INS"))
                case "3": keys.append(.named("DEL"))
                case "4", "8": keys.append(.named("END"))
                case "5": keys.append(.pageUp)
                case "6": keys.append(.pageDown)
                default: break                                           // F-keys and others: ignored
                }
            default: break                                               // other keys: ignored
            }
            index = end + 1
        }
        pending.removeFirst(index)
        return keys
    }

    /// A byte that is a key by itself: printable ASCII, Enter, Tab, Backspace, Ctrl+letter.
    private static func plain(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x20..<0x7F: return .character(Character(Unicode.Scalar(byte)))
        case 0x0A, 0x0D: return .named("ENTER")
        case 0x09: return .named("TAB")
        case 0x08, 0x7F: return .named("BS")
        case 0x01...0x1A: return .named("Ctrl+" + String(Unicode.Scalar(byte + 0x60)))
        default: return nil
        }
    }
}

/// The terminal's saved settings and raw-mode switching (`tcgetattr`/`tcsetattr`).
///
/// **Thread:** any thread; the saved `termios` sits behind one `Mutex`. ``restore()`` is
/// idempotent and is also registered with `atexit`.
enum RawTerminal {
    private struct Saved {
        var fd: Int32
        var original: termios
        var raw: termios
    }

    /// The saved settings (nil: raw mode off) and whether ``restore()`` is registered with `atexit`: one lock.
    private static let state = Mutex<(saved: Saved?, atexitRegistered: Bool)>((nil, false))

    /// False only when `fd` is the controlling terminal and another process group is in the
    /// foreground (we were started with `&`): changing its modes then would disturb the shell.
    static func isForeground(fd: Int32 = STDIN_FILENO) -> Bool {
        let group = tcgetpgrp(fd)
        return group < 0 || group == getpgrp()
    }

    /// Turns off canonical mode and echo on `fd` (signals stay on, so Ctrl-C still sends
    /// SIGINT; output processing stays on, so `\n` still returns the carriage). Returns false
    /// when `fd` is not a terminal.
    @discardableResult
    static func enable(fd: Int32 = STDIN_FILENO) -> Bool {
        var settings = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &settings) == 0 else { return false }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        let register = state.withLock { state in
            state.saved = Saved(fd: fd, original: settings, raw: raw)
            defer { state.atexitRegistered = true }
            return !state.atexitRegistered
        }
        if register { atexit { RawTerminal.restore() } }
        return tcsetattr(fd, TCSANOW, &raw) == 0
    }

    /// Puts back the settings saved by ``enable(fd:)``, once.
    static func restore() {
        guard let entry = state.withLock({ state -> Saved? in
            defer { state.saved = nil }
            return state.saved
        }) else { return }
        var original = entry.original
        _ = tcsetattr(entry.fd, TCSANOW, &original)
    }

    /// Ctrl-Z: puts back the original settings but remembers raw mode for ``resume()``.
    static func suspend() {
        guard var entry = state.withLock({ $0.saved }) else { return }
        _ = tcsetattr(entry.fd, TCSANOW, &entry.original)
    }

    /// After `fg` (SIGCONT): raw mode again, if it was on and we are in the foreground.
    static func resume() {
        guard let entry = state.withLock({ $0.saved }), isForeground(fd: entry.fd) else { return }
        var raw = entry.raw
        _ = tcsetattr(entry.fd, TCSANOW, &raw)
    }
}

/// Reads keys from the terminal on a GLib context of its own (a read watch on `fd`: woken only
/// when a byte arrives) and hands each key to `onKey`. Stops at EOF, on a read error, or at
/// ``stop()``.
///
/// **Thread:** ``start()``/``stop()`` from any thread; `onKey` runs on the reader's loop thread
/// (`gstplay-keys`).
final class KeyReader: Sendable {
    private let fd: Int32
    private let onKey: @Sendable (Key) -> Void
    private let loop = MainLoopThread(name: "gstplay-keys")   // name visible in /proc

    init(fd: Int32 = STDIN_FILENO, onKey: @escaping @Sendable (Key) -> Void) {
        self.fd = fd
        self.onKey = onKey
    }

    /// Starts watching `fd` (`g_unix_fd_source_new` on the reader's context). Call once.
    func start() {
        let (fd, onKey, loop) = (self.fd, self.onKey, self.loop)
        loop.invoke {
            var decoder = KeyDecoder()
            var watch: TimerSource?
            // The watch keeps itself (through its own closure) until it returns false or the
            // context goes with the loop.
            watch = loop.addReadWatch(fileDescriptor: fd) {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
                guard count > 0 else {
                    watch?.destroy()
                    watch = nil
                    return false
                }
                for key in decoder.feed(Array(buffer[0..<count])) { onKey(key) }
                return true
            }
        }
    }

    /// Stops reading: the loop quits and its thread is joined (`g_main_loop_quit`,
    /// `g_thread_join`); no key is delivered after it returns (unless called from `onKey`).
    func stop() { loop.quitAndJoin() }
}
