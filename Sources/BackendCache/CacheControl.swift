#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The directives of a response's `Cache-Control` header the media cache obeys (RFC 9111 §5.2.2):
/// `no-store` (never kept), `no-cache` (revalidated before every use), `max-age` (seconds the
/// copy stays fresh). Pure value; any thread.
public struct CacheControl: Codable, Sendable, Hashable {
    /// `max-age=N`: fresh for N seconds after the response.
    public var maxAge: Double?
    /// `no-cache`: may be kept, but must be revalidated before each use.
    public var noCache = false
    /// `no-store`: must not be kept at all.
    public var noStore = false

    /// Parses a `Cache-Control` value (`"public, max-age=60"`); nil for a missing header.
    /// Unknown directives are ignored; directive names are case-insensitive.
    public init?(header: String?) {
        guard let header else { return nil }
        for part in header.split(separator: ",") {
            let directive = part.split(separator: "=", maxSplits: 1).map { Self.trimmed($0, also: "") }
            guard let name = directive.first?.lowercased() else { continue }
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                let value = directive.count > 1 ? Self.trimmed(Substring(directive[1]), also: "\"") : ""
                if let seconds = Double(value), seconds >= 0 { maxAge = seconds }
            default: break
            }
        }
    }

    /// `text` without leading and trailing spaces, tabs and the characters in `also`.
    private static func trimmed(_ text: Substring, also: String) -> String {
        let drop: (Character) -> Bool = { $0 == " " || $0 == "\t" || also.contains($0) }
        return String(text.drop(while: drop).reversed().drop(while: drop).reversed())
    }
}

/// When a cached copy may be played without asking the server (RFC 9111 §4.2, §4.3): within
/// the freshness lifetime, or always when offline. Pure; any thread.
public enum CacheFreshness {
    /// True when `entry` must be revalidated at `now` (seconds since 1970) before it is played:
    /// never `offline`; always after `no-cache`; else once its age since it was stored or last
    /// confirmed reaches the smaller of `interval` and the server's `max-age`.
    public static func needsValidation(_ entry: MediaCache.Entry, now: Double, interval: Double, offline: Bool) -> Bool {
        if offline { return false }
        if entry.control?.noCache == true { return true }
        let lifetime = min(interval, entry.control?.maxAge ?? .infinity)
        return now - entry.checkedAt >= lifetime
    }
}
