extension String {
    /// `self` with every occurrence of `target` replaced (no Foundation in the Backend). Matches
    /// Unicode scalars, not Characters: in markup `&lt;` followed by a combining mark is still
    /// the entity (as Characters its `;` and the mark are one grapheme and would not match).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        let pattern = target.unicodeScalars
        guard !pattern.isEmpty, unicodeScalars.firstRange(of: pattern) != nil else { return self }
        var result = String.UnicodeScalarView()
        var rest = unicodeScalars[...]
        while let range = rest.firstRange(of: pattern) {
            result.append(contentsOf: rest[..<range.lowerBound])
            result.append(contentsOf: replacement.unicodeScalars)
            rest = rest[range.upperBound...]
        }
        result.append(contentsOf: rest)
        return String(result)
    }
}
