import CGStreamer

/// The start and end tags of an XML document, read by GLib's `GMarkup` parser
/// (`g_markup_parse_context_new`, `g_markup_parse_context_parse`, `…_end_parse`): attribute
/// values come with the predefined entities and character references decoded; comments,
/// declarations, processing instructions and text are skipped.
///
/// Pure and thread-agnostic (one parse context per call).
struct MarkupTag: Sendable, Hashable {
    /// The element's local name (a namespace prefix such as `mpd:` dropped).
    var name: String
    /// An end tag (an empty element `<a/>` gives a start tag and then an end tag).
    var closing: Bool
    /// The start tag's attributes by their full name (none for an end tag).
    var attributes: [String: String]

    /// The tags of `text` in document order; nil when GMarkup rejects the document (not
    /// well-formed XML, including a truncated one). A leading byte order mark is skipped.
    static func scan(_ text: String) -> [MarkupTag]? {
        var scalars = Substring(text).unicodeScalars
        while scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        let document = String(scalars)
        let collector = Collector()
        var parser = GMarkupParser()
        parser.start_element = { _, name, names, values, data, _ in
            guard let name, let data else { return }
            var attributes: [String: String] = [:]
            var index = 0
            while let names, let values, let attribute = names[index], let value = values[index] {
                attributes[String(cString: attribute)] = String(cString: value)
                index += 1
            }
            MarkupTag.Collector.from(data).tags.append(MarkupTag(name: MarkupTag.localName(name), closing: false, attributes: attributes))
        }
        parser.end_element = { _, name, data, _ in
            guard let name, let data else { return }
            MarkupTag.Collector.from(data).tags.append(MarkupTag(name: MarkupTag.localName(name), closing: true, attributes: [:]))
        }
        let accepted = withUnsafePointer(to: &parser) { parser -> Bool in
            // The context borrows `parser` and `collector` for the calls below only; it is freed before they go.
            guard let context = g_markup_parse_context_new(parser, GMarkupParseFlags(rawValue: 0),
                                                           Unmanaged.passUnretained(collector).toOpaque(), nil) else { return false }
            defer { g_markup_parse_context_free(context) }
            var error: UnsafeMutablePointer<GError>?
            defer { if let error { g_error_free(error) } }
            let length = gssize(document.utf8.count)
            guard document.withCString({ g_markup_parse_context_parse(context, $0, length, &error) }) != 0 else { return false }
            return g_markup_parse_context_end_parse(context, &error) != 0
        }
        return accepted ? collector.tags : nil
    }

    /// `mpd:Representation` → `Representation`.
    fileprivate static func localName(_ qualified: UnsafePointer<gchar>) -> String {
        let name = String(cString: qualified)
        return name.split(separator: ":").last.map(String.init) ?? name
    }

    /// Where the C callbacks put the tags (borrowed through `user_data` during one parse).
    fileprivate final class Collector {
        var tags: [MarkupTag] = []
        static func from(_ pointer: UnsafeMutableRawPointer) -> Collector {
            Unmanaged<Collector>.fromOpaque(pointer).takeUnretainedValue()
        }
    }
}
