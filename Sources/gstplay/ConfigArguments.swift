import BackendControl
import ArgumentParser
import GLibSupport

/// `--no-config`, `--config-dir DIR`, `--profile NAME`: read by ``ConfigArguments`` before
/// parsing; declared here too so that `--help` lists them and the parser accepts them.
struct ConfigOptions: ParsableArguments {
    @Flag(name: .customLong("no-config"), help: "Read no config file.")
    var noConfig = false

    @Option(name: .customLong("config-dir"), help: ArgumentHelp(
        "Read gstplay.conf here, not in ~/.config/gstplay.", valueName: "dir"))
    var configDirectory: String?

    @Option(help: ArgumentHelp("Apply the config file's [NAME] section(s) (a,b).",
                               valueName: "name"))
    var profile: [String] = []
}

/// The config file as command-line words: each option of `gstplay.conf` (and of the profiles
/// asked for) becomes `--name=value` or a flag, put before the command line's own arguments, so
/// the command line wins (a later value replaces an earlier one). Each option is first parsed
/// on its own, so that an unknown option or a bad value is reported as `FILE:LINE: …`.
/// Reads files; runs once, before parsing, on the main thread.
enum ConfigArguments {
    /// A config problem: the `gstplay: error:` line's text (exit code 2).
    struct Failure: Error, Equatable, Sendable {
        var message: String
    }

    /// The largest config file read (a larger one is "cannot read").
    static let fileSizeLimit = 1 << 20

    /// Options that only the command line can give.
    static let commandLineOnly: Set<String> = ["no-config", "config-dir", "help", "version"]

    /// `arguments` (without the program name) with the config file's options put before them;
    /// unchanged with `--no-config`, when asking for help or a version, or when the file does not exist.
    static func prepend(to arguments: [String], environment: [String: String] = ConfigFile.directoryEnvironment) throws(Failure) -> [String] {
        let scan = CommandLineScan(arguments)
        if scan.noConfig || scan.wantsHelp { return arguments }
        let path = PathText.appending("gstplay.conf", to: scan.configDirectory ?? ConfigFile.defaultDirectory(environment))
        guard PathText.exists(path) else {
            if scan.configDirectory != nil || !scan.profiles.isEmpty {
                throw Failure(message: "\(path): no such config file")
            }
            return arguments
        }
        var expansion = Expansion()
        let document = try expansion.load(path)
        var words = try expansion.expand(document.top)
        for profile in scan.profiles {
            guard let entries = expansion.profiles[profile] else {
                throw Failure(message: "--profile: no profile '\(profile)' in \(path)")
            }
            words += try expansion.expand(entries)
        }
        try expansion.checkTogether(words, arguments)
        return words + arguments
    }

    /// The config options found on the command line (before a `--`).
    struct CommandLineScan {
        var noConfig = false
        var wantsHelp = false
        var configDirectory: String?
        var profiles: [String] = []

        init(_ arguments: [String]) {
            var index = arguments.startIndex
            while index < arguments.endIndex, arguments[index] != "--" {
                let argument = arguments[index]
                index += 1
                let next = index < arguments.endIndex ? arguments[index] : nil
                switch argument {
                case "--no-config": noConfig = true
                case "--help", "-h", "--version", "--generate-completion-script", "--experimental-dump-help": wantsHelp = true
                case "--config-dir": configDirectory = next
                case "--profile": profiles += Self.names(next)
                default:
                    if argument.hasPrefix("--config-dir=") { configDirectory = String(argument.dropFirst("--config-dir=".count)) }
                    if argument.hasPrefix("--profile=") { profiles += Self.names(String(argument.dropFirst("--profile=".count))) }
                }
            }
        }

        /// `a,b` → `["a", "b"]`.
        static func names(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }
    }

    /// Walks a config document: includes, profiles, and each option checked and turned into words.
    struct Expansion {
        /// Every profile seen so far (included files add theirs).
        var profiles: [String: [ConfigFile.Entry]] = [:]
        /// Files and profiles being expanded, against include and profile loops.
        private var active: [String] = []
        /// Options that failed alone (``words(for:)``), in order.
        private var doubtful: [EntryFailure] = []

        /// An option that failed when parsed alone: its words, where it is and the parser's message.
        struct EntryFailure: Error {
            var words: [String]
            var at: String
            var message: String
            var name: String
        }

        /// Parses the config's `words` with the command line's `arguments` (and a placeholder
        /// location) when an option failed alone: when the whole fails with the message an option
        /// had alone, that option's `FILE:LINE` is named; when it parses, the option only needed
        /// another (`remote-bind` and `remote`). Another failure is left to the real parse.
        func checkTogether(_ words: [String], _ arguments: [String]) throws(Failure) {
            guard !doubtful.isEmpty else { return }
            let placeholder = arguments.contains("--") ? ["config-check-placeholder"] : ["--", "config-check-placeholder"]
            do {
                _ = try GstplayCommand.parseAsRoot(FlagValueRewrite.rewrite(words + arguments + placeholder))
            } catch {
                let message = GstplayCommand.message(for: error)
                guard let culprit = doubtful.first(where: { $0.message == message }) ?? doubtful.first(where: Self.isUnknown) else { return }
                // ArgumentParser's "Unknown option '--x'. Did you mean …?" guesses among every flag.
                let text = Self.isUnknown(culprit) ? "unknown option '\(culprit.name)'" : culprit.message
                throw Failure(message: "\(culprit.at): \(text)")
            }
        }

        private static func isUnknown(_ failure: EntryFailure) -> Bool { failure.message.hasPrefix("Unknown option") }

        /// Reads and parses `path`; its profiles are added to ``profiles``.
        mutating func load(_ path: String) throws(Failure) -> ConfigFile.Document {
            guard let bytes = try? AtomicFile.read(path, limit: ConfigArguments.fileSizeLimit), let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure(message: "\(path): cannot read the config file")
            }
            do {
                let document = try ConfigFile.parse(text, file: path)
                profiles.merge(document.profiles) { $0 + $1 }
                return document
            } catch {
                throw Failure(message: error.description)
            }
        }

        /// The words for `entries`, in order (`include` and `profile` expanded in place).
        mutating func expand(_ entries: [ConfigFile.Entry]) throws(Failure) -> [String] {
            var words: [String] = []
            for entry in entries {
                let at = "\(entry.file):\(entry.line)"
                switch entry.name {
                case "include":
                    guard let value = entry.value, !value.isEmpty else { throw Failure(message: "\(at): include needs a file") }
                    let path = value.hasPrefix("/") ? value : PathText.appending(value, to: PathText.deletingLastComponent(entry.file))
                    guard !active.contains(path), active.count < 20 else { throw Failure(message: "\(at): include loop (\(value))") }
                    guard PathText.exists(path) else { throw Failure(message: "\(at): include: no such file \(path)") }
                    active.append(path)
                    let document = try load(path)
                    words += try expand(document.top)
                    active.removeLast()
                case "profile":
                    let names = CommandLineScan.names(entry.value)
                    guard !names.isEmpty else { throw Failure(message: "\(at): profile needs a name") }
                    for name in names {
                        guard let profile = profiles[name] else { throw Failure(message: "\(at): no profile '\(name)'") }
                        guard !active.contains("[\(name)]"), active.count < 20 else { throw Failure(message: "\(at): profile loop (\(name))") }
                        active.append("[\(name)]")
                        words += try expand(profile)
                        active.removeLast()
                    }
                case "profile-desc":
                    continue
                case let name where ConfigArguments.commandLineOnly.contains(name):
                    throw Failure(message: "\(at): --\(name) only works on the command line")
                default:
                    do {
                        words += try Self.words(for: entry)
                    } catch {
                        // Perhaps fine with the rest (`remote-bind` needs `remote`): judged by ``checkTogether(_:_:)``.
                        words += error.words
                        doubtful.append(error)
                    }
                }
            }
            return words
        }

        /// The words for one option, checked by parsing them alone (with a placeholder location):
        /// `name` alone and `name=yes` are the flag `--name`, `name=no` is `--no-name` (or `--name=no`
        /// for an option that takes it), anything else `--name=value`.
        static func words(for entry: ConfigFile.Entry) throws(EntryFailure) -> [String] {
            let name = entry.name
            var candidates: [[String]]
            switch entry.value {
            case nil: candidates = [["--\(name)"]]
            case "yes"?: candidates = [["--\(name)"], ["--\(name)=yes"]]
            case "no"?: candidates = name.hasPrefix("no-") ? [["--\(name)=no"]] : [["--no-\(name)"], ["--\(name)=no"]]
            case let value?: candidates = [["--\(name)=\(value)"]]
            }
            var firstError: Error?
            for words in candidates {
                do {
                    _ = try GstplayCommand.parseAsRoot(FlagValueRewrite.rewrite(words + ["config-check-placeholder"]))
                    return words
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            let message = firstError.map { GstplayCommand.message(for: $0) } ?? "bad option"
            throw EntryFailure(words: candidates[0], at: "\(entry.file):\(entry.line)", message: message, name: name)
        }
    }
}
