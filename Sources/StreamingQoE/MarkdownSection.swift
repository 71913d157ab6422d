/// A generated section of a markdown file between two marker lines (docs/BENCHMARKS.md's
/// `abr-qoe` section, written by `gstplay-bench abr-qoe --section`), with what a person wrote
/// below it kept as it stands.
///
/// Pure string work; any thread.
public struct MarkdownSection: Sendable, Hashable {
    /// The line that opens the section.
    public let begin: String
    /// The line that closes it.
    public let end: String

    /// A section delimited by `begin` and `end`.
    public init(begin: String, end: String) {
        self.begin = begin
        self.end = end
    }

    /// The section in `document`, markers included, with a final newline; nil when absent.
    public func extract(from document: String) -> String? {
        range(in: document).map { String(document[$0.lowerBound..<$0.upperBound]) + "\n" }
    }

    /// Everything from the begin marker to the end of `document` (the section and the
    /// hand-written text below it); nil when the section is absent.
    public func tail(of document: String) -> String? {
        range(in: document).map { String(document[$0.lowerBound...]) }
    }

    /// `document` with its section replaced by `section` (markers included), or `section`
    /// appended after a blank line when absent. End markers left right after the old section
    /// (a section pasted back by hand over itself) go with it, so the file keeps one of each.
    public func replace(in document: String, with section: String) -> String {
        guard let old = range(in: document) else {
            var text = document
            if !text.isEmpty, !text.hasSuffix("\n\n") { text += text.hasSuffix("\n") ? "\n" : "\n\n" }
            return text + section
        }
        var after = old.upperBound
        while true {
            let rest = document[after...]
            let blank = rest.prefix { $0 == "\n" || $0 == " " }
            guard rest.dropFirst(blank.count).hasPrefix(end) else { break }
            after = document.index(rest.startIndex, offsetBy: blank.count + end.count)
        }
        if after < document.endIndex, document[after] == "\n" { after = document.index(after: after) }
        var text = document
        text.replaceSubrange(old.lowerBound..<after, with: section)
        return text
    }

    /// From the begin marker to the end of the first end marker after it.
    private func range(in document: String) -> Range<String.Index>? {
        guard let start = document.range(of: begin),
              let stop = document.range(of: end, range: start.upperBound..<document.endIndex) else { return nil }
        return start.lowerBound..<stop.upperBound
    }
}
