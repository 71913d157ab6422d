#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Key names as mpv's input.conf writes them: optional modifiers `Ctrl+`, `Alt+`, `Shift+`,
/// `Meta+` (any case, any order), then one printable character (`a`, `A`, `>`) or a named key
/// (`SPACE`, `LEFT`, `PGDWN`, `ENTER`, `MBTN_LEFT`, any case). A window's or a terminal's keys
/// map to these names to find their ``InputBindings`` binding. Pure; any thread.
public enum KeyName {
    /// The named keys gstplay knows (mpv's spelling), uppercase.
    public static let named: Set<String> = Set([
        "SPACE", "SHARP", "ENTER", "ESC", "TAB", "BS", "DEL", "INS", "HOME", "END", "PGUP", "PGDWN",
        "LEFT", "RIGHT", "UP", "DOWN", "PLUS",
        "MBTN_LEFT", "MBTN_LEFT_DBL", "MBTN_MID", "MBTN_RIGHT", "WHEEL_UP", "WHEEL_DOWN",
    ] + (1...12).map { "F\($0)" })

    /// What `--input-keylist` prints: the named keys, sorted, then the modifiers with their `+`.
    public static var list: [String] { named.sorted() + modifiers.map { $0 + "+" } }

    /// The modifiers, in the order a canonical name writes them.
    public static let modifiers = ["Ctrl", "Alt", "Shift", "Meta"]

    /// The canonical spelling of `spec` (modifiers as `Ctrl+Alt+Shift+Meta+`, named keys in
    /// uppercase, `Shift+` on a letter as the capital letter, ` ` as `SPACE`, `#` as `SHARP`,
    /// `+` as `PLUS`), nil when it names no key.
    public static func canonical(_ spec: String) -> String? {
        var rest = Substring(spec)
        var held: Set<String> = []
        while rest.count > 1, let plus = rest.firstIndex(of: "+"), plus != rest.startIndex {
            let word = rest[..<plus].lowercased()
            guard let modifier = modifiers.first(where: { $0.lowercased() == word }) else { break }
            held.insert(modifier)
            rest = rest[rest.index(after: plus)...]
        }
        guard var name = base(rest) else { return nil }
        if held.contains("Shift"), name.count == 1, let letter = name.first, letter.isASCII, letter.isLetter {
            held.remove("Shift")
            name = name.uppercased()
        }
        return modifiers.filter(held.contains).map { $0 + "+" }.joined() + name
    }

    /// The canonical name of a key without modifiers.
    private static func base(_ text: Substring) -> String? {
        if text.count == 1, let character = text.first {
            switch character {
            case " ": return "SPACE"
            case "#": return "SHARP"
            case "+": return "PLUS"
            default: return character.isASCII && !character.isWhitespace && !character.isNewline ? String(character) : nil
            }
        }
        let upper = text.uppercased()
        return named.contains(upper) ? upper : nil
    }
}

/// One binding of an input.conf: the command line (as written, for `?`), its parsed command
/// (nil for `ignore`), and the summary after `#`. A plain value; any thread.
public struct KeyBinding: Equatable, Sendable {
    /// The command line as written (`ignore` for an unbound key).
    public var command: String
    /// The parsed console command (run it with ``PlayerControl/execute(_:)-(ConsoleCommand)``); nil for `ignore`.
    public var parsed: ConsoleCommand?
    /// The text after `#`: what `?` shows.
    public var summary: String

    /// A binding of `command` (already parsed as `parsed`) with `summary`.
    public init(command: String, parsed: ConsoleCommand?, summary: String) {
        self.command = command
        self.parsed = parsed
        self.summary = summary
    }
}

/// The key bindings in force: the built-in input.conf with a user's file over it, key by key
/// (mpv's input.conf syntax), for the terminal's keys and a video window's alike. Parsing is
/// pure; a plain value; any thread.
public struct InputBindings: Equatable, Sendable {
    /// The canonical key names (``KeyName/canonical(_:)``) bound, in the order first bound.
    public private(set) var keys: [String] = []
    /// Canonical key name → its binding.
    public private(set) var table: [String: KeyBinding] = [:]

    /// No bindings (``apply(_:file:)`` adds some).
    public init() {}

    /// The built-in bindings (``BuiltinInputConf``).
    public static let builtin: InputBindings = {
        var bindings = InputBindings()
        let warnings = bindings.apply(BuiltinInputConf.text, file: BuiltinInputConf.name)
        precondition(warnings.isEmpty, "the built-in input.conf: \(warnings)")
        return bindings
    }()

    /// The binding of the key named `name` (canonical, ``KeyName/canonical(_:)``), nil when it is
    /// unbound or bound to `ignore`.
    public func binding(forKeyNamed name: String) -> KeyBinding? {
        table[name].flatMap { $0.parsed == nil ? nil : $0 }
    }

    /// The command line bound to a key name (any spelling), nil when unbound; `ignore` for an unbound built-in.
    public func command(for spec: String) -> String? {
        KeyName.canonical(spec).flatMap { table[$0]?.command }
    }

    /// Applies the lines of an input.conf: each `KEY command…` binds (or, with `ignore`,
    /// unbinds) that key; blank lines and `#` comments are skipped. A line with an unknown
    /// key or a command that does not parse is left out; its warning (`file:line: …`) is
    /// returned and the other lines still apply, as mpv does.
    @discardableResult
    public mutating func apply(_ text: String, file: String) -> [String] {
        var warnings: [String] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let (content, comment) = Self.splitComment(rawLine)
            guard !content.isEmpty else { continue }
            let place = "\(file):\(number + 1)"
            let keySpec: String
            let command: String
            if let space = content.firstIndex(where: { $0 == " " || $0 == "\t" }) {
                keySpec = String(content[..<space])
                command = content[space...].trimmingWhitespace()
            } else {
                keySpec = content
                command = ""
            }
            guard let key = KeyName.canonical(keySpec) else {
                warnings.append("\(place): unknown key '\(ConsoleCommand.printable(keySpec))'")
                continue
            }
            guard !command.isEmpty else {
                warnings.append("\(place): no command for key '\(ConsoleCommand.printable(keySpec))' (use 'ignore' to unbind it)")
                continue
            }
            let binding: KeyBinding
            if command.lowercased() == "ignore" {
                binding = KeyBinding(command: "ignore", parsed: nil, summary: comment)
            } else {
                switch ConsoleCommand.parse(command) {
                case .failure(let error):
                    warnings.append("\(place): \(error.message)")
                    continue
                case .success(let parsed):
                    binding = KeyBinding(command: command, parsed: parsed, summary: comment)
                }
            }
            if table[key] == nil { keys.append(key) }
            table[key] = binding
        }
        return warnings
    }

    /// A line without its `\r`, split at the first `#` into the trimmed content and the trimmed comment.
    private static func splitComment(_ line: Substring) -> (content: String, comment: String) {
        let line = line.hasSuffix("\r") ? line.dropLast() : line
        guard let hash = line.firstIndex(of: "#") else { return (line.trimmingWhitespace(), "") }
        return (line[..<hash].trimmingWhitespace(), line[line.index(after: hash)...].trimmingWhitespace())
    }

    /// The bound keys of each row (``rows``), as the JSON `help` reply lists them.
    public var keyNames: [String] { rows.map(\.keys) }

    /// One line per row (``rows``), as `?`, `keys` and `gstplay help keys` print them: the keys,
    /// their command and its summary, in two columns.
    public var helpLines: [String] { ConsoleCommand.helpColumns(rows.map { ($0.keys, $0.summary) }) }

    /// The bound keys (not `ignore`d), as `?` and `gstplay help keys` list them: the key, the
    /// command, and its summary; keys with the same command and summary share a row.
    public var rows: [(keys: String, summary: String)] {
        var rows: [(keys: [String], command: String, summary: String)] = []
        for key in keys {
            guard let binding = table[key], binding.parsed != nil else { continue }
            if let index = rows.firstIndex(where: { $0.command == binding.command && $0.summary == binding.summary }) {
                rows[index].keys.append(key)
            } else {
                rows.append(([key], binding.command, binding.summary))
            }
        }
        return rows.map { row in
            (row.keys.joined(separator: " "), row.summary.isEmpty ? row.command : "\(row.command.padded(toLength: 22))\(row.summary)")
        }
    }
}
