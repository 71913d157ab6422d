#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GLibSupport
import Glibc

/// The config file, `$XDG_CONFIG_HOME/gstplay/gstplay.conf` (else `~/.config/gstplay/gstplay.conf`),
/// in mpv.conf's syntax: `option=value` or `option` alone (a flag) per line, `#` comments, `[name]`
/// profile sections (`[default]` goes back to the top), `profile=NAME[,NAME…]` and `include=FILE`.
/// Pure parsing (reading the files is the caller's: gstplay's `ConfigArguments`), so an embedding
/// app can read the same file. Any thread.
public enum ConfigFile {
    /// One `option[=value]` line, with where it came from (for `FILE:LINE:` in error lines).
    public struct Entry: Equatable, Sendable {
        /// The option's long name without `--`.
        public var name: String
        /// The value after `=`, unquoted; nil for `option` alone.
        public var value: String?
        /// The file it came from, as given to ``ConfigFile/parse(_:file:)``.
        public var file: String
        /// Its line in ``file``, from 1.
        public var line: Int

        /// An entry for `name[=value]` at `file:line`.
        public init(name: String, value: String?, file: String, line: Int) {
            self.name = name
            self.value = value
            self.file = file
            self.line = line
        }
    }

    /// A parsed file: the lines outside any section, in order, and each profile's lines.
    public struct Document: Equatable, Sendable {
        /// The lines before any section and under `[default]`, in order.
        public var top: [Entry] = []
        /// Each `[name]` section's lines, in order (a name given twice: both parts, in order).
        public var profiles: [String: [Entry]] = [:]
    }

    /// A line that cannot be read as an option, a section or a comment.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file, as given to ``ConfigFile/parse(_:file:)``.
        public var file: String
        /// The line that failed, from 1.
        public var line: Int
        /// What is wrong with it.
        public var message: String

        /// `FILE:LINE: message`, as the error line shows it.
        public var description: String { "\(file):\(line): \(message)" }
    }

    /// gstplay's config directory, where `gstplay.conf` and `input.conf` are looked for:
    /// `$XDG_CONFIG_HOME/gstplay` (an absolute path only), else `$HOME/.config/gstplay` (the
    /// password database's home without `$HOME`). Reads `environment` and, at most, `getpwuid`;
    /// any thread.
    public static func defaultDirectory(_ environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return PathText.appending("gstplay", to: config) }
        let home = environment["HOME"] ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/"
        return PathText.appending(".config/gstplay", to: home)
    }

    /// The variables ``defaultDirectory(_:)`` reads, from this process's environment. Any thread.
    package static var directoryEnvironment: [String: String] { ProcessEnvironment.values(of: ["XDG_CONFIG_HOME", "HOME"]) }

    /// Parses the text of `file` (mpv's rules: leading and trailing blanks ignored; an unquoted
    /// value ends at `#`; a value in `"…"` or `'…'` is taken as is; a `--` before the name is
    /// allowed).
    public static func parse(_ text: String, file: String) throws(Failure) -> Document {
        var document = Document()
        var section: String?
        for (offset, rawLine) in lines(of: text).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingWhitespaceAndNewlines()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]"),
                      isBlankOrComment(line[line.index(after: close)...]) else {
                    throw Failure(file: file, line: number, message: "a section needs a closing ']' ('\(line)')")
                }
                let name = line[line.index(after: line.startIndex)..<close].trimmingWhitespace()
                guard !name.isEmpty else { throw Failure(file: file, line: number, message: "a section needs a name ('[]')") }
                section = name == "default" ? nil : name
                if let section, document.profiles[section] == nil { document.profiles[section] = [] }
                continue
            }
            let entry = try entry(line, file: file, line: number)
            if let section { document.profiles[section, default: []].append(entry) } else { document.top.append(entry) }
        }
        return document
    }

    /// The lines of `text`, split at every line break: `\n`, `\r\n` (one `Character` in Swift, so
    /// `split(separator: "\n")` would miss it), a lone `\r` and Unicode's other line separators.
    public static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// Whether `name` can be a long option's name: an ASCII letter or digit, then letters, digits,
    /// `-` and `_`.
    public static func isOptionName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// One `[--]name[=value][ # comment]` line.
    private static func entry(_ line: String, file: String, line number: Int) throws(Failure) -> Entry {
        var rest = Substring(line)
        if rest.hasPrefix("--") { rest = rest.dropFirst(2) }
        let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != "#" }
        guard !name.isEmpty else { throw Failure(file: file, line: number, message: "expected option=value, got '\(line)'") }
        // Option names are ASCII letters, digits and inner dashes (`----x` is not `--x` written
        // twice; `--[x` is not a section): anything else is no option of ours.
        guard isOptionName(name) else { throw Failure(file: file, line: number, message: "'\(name)' is no option name") }
        rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
        var value: String?
        if rest.first == "=" {
            rest = rest.dropFirst().drop { $0.isWhitespace }
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                guard let end = body.firstIndex(of: quote) else {
                    throw Failure(file: file, line: number, message: "unterminated quote in '\(line)'")
                }
                value = String(body[..<end])
                rest = body[body.index(after: end)...]
            } else {
                let end = rest.firstIndex(of: "#") ?? rest.endIndex
                value = rest[..<end].trimmingWhitespace()
                rest = rest[end...]
            }
        }
        guard isBlankOrComment(rest) else {
            throw Failure(file: file, line: number, message: "unexpected text after the option in '\(line)'")
        }
        return Entry(name: String(name), value: value, file: file, line: number)
    }

    private static func isBlankOrComment(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0.isWhitespace }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }
}
