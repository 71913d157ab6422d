import Backend

/// A player error as the one line a person reads after `error: <location>: `. Pure; any thread.
public enum ErrorText {
    /// The message, the operating system's reason if GStreamer only put it in the debug text
    /// (`Could not open file "x" for reading. (Permission denied)`), why a streaming thread
    /// stopped (`PlayerError/streamingStopReason`), the HTTP status if any, and the missing
    /// plugins the message does not name already.
    public static func text(of error: PlayerError) -> String {
        var text = error.message
        if let reason = systemReason(inDebug: error.debug), !text.containsIgnoringCase(reason) { text += " (\(reason))" }
        if let reason = error.streamingStopReason { text += " (streaming stopped: \(reason))" }
        if let status = error.httpStatus, !text.contains(String(status)) { text += " (HTTP \(status))" }
        let missing = error.missingPlugins.filter { !error.message.contains($0) }
        if !missing.isEmpty { text += " (missing: " + missing.joined(separator: ", ") + ")" }
        return text
    }

    /// The `strerror` text GStreamer elements append to their debug string as a last line
    /// `system error: <reason>` (e.g. filesrc's `system error: Permission denied`), or nil.
    public static func systemReason(inDebug debug: String?) -> String? {
        guard let last = debug?.split(whereSeparator: \.isNewline).last, last.hasPrefix("system error: ") else { return nil }
        let reason = last.dropFirst("system error: ".count).trimmingWhitespace()
        return reason.isEmpty ? nil : String(ConsoleCommand.printable(reason))
    }
}
