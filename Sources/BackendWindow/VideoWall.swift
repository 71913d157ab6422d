import BackendCore

/// One tile of a video wall: the picture is spread over `columns` × `rows` screens and this
/// player shows the tile at (`column`, `row`), counted from 0 at the top left (`gstplay --wall
/// 2x1:0,0`). Between two neighbouring tiles a strip of the picture as wide as ``bezel`` is
/// hidden, as a real wall's screen frames hide it, so that lines crossing a frame stay straight.
/// A plain value (pure).
public struct VideoWall: Sendable, Hashable {
    /// The strip of picture hidden between two neighbouring tiles.
    public enum Bezel: Sendable, Hashable {
        /// That many pixels of the picture (coded pixels across, rows down).
        case pixels(Int)
        /// That fraction of a tile's width (between columns) or height (between rows), 0 ≤ f < 1.
        case fraction(Double)
    }

    /// Why a `--wall` value was refused, one sentence.
    public struct ParseError: Error, Sendable, Equatable {
        /// The reason, for a `gstplay:` line.
        public let message: String
    }

    /// Tiles across and down, 1…64 each.
    public var columns: Int
    public var rows: Int
    /// This tile, from 0: `column` < ``columns``, `row` < ``rows``.
    public var column: Int
    public var row: Int
    /// The hidden strip between tiles (none by default).
    public var bezel: Bezel

    /// A tile; the values are not checked here (``parse(_:)`` checks them).
    public init(columns: Int, rows: Int, column: Int, row: Int, bezel: Bezel = .pixels(0)) {
        self.columns = columns
        self.rows = rows
        self.column = column
        self.row = row
        self.bezel = bezel
    }

    /// Reads `COLSxROWS:COL,ROW[:BEZEL]`, e.g. `2x1:0,0`, `3x2:2,1:40` (40 pixels) or
    /// `2x2:1,0:0.05` (5 % of a tile): BEZEL is pixels when a whole number, else a fraction below 1.
    public static func parse(_ text: String) -> Result<VideoWall, ParseError> {
        let fail = { (why: String) in Result<VideoWall, ParseError>.failure(ParseError(message: "\(why) (got '\(text)'; the form is COLSxROWS:COL,ROW[:BEZEL], e.g. 2x1:0,0)")) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return fail("expected two or three parts separated by ':'") }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        let place = parts[1].split(separator: ",", omittingEmptySubsequences: false)
        guard size.count == 2, let columns = Int(size[0]), let rows = Int(size[1]) else { return fail("the wall's size must be COLSxROWS") }
        guard (1...64).contains(columns), (1...64).contains(rows) else { return fail("columns and rows must be 1 to 64") }
        guard place.count == 2, let column = Int(place[0]), let row = Int(place[1]) else { return fail("the tile must be COL,ROW") }
        guard (0..<columns).contains(column), (0..<rows).contains(row) else {
            return fail("the tile must be inside the wall (column 0 to \(columns - 1), row 0 to \(rows - 1))")
        }
        var bezel = Bezel.pixels(0)
        if parts.count == 3 {
            if let pixels = Int(parts[2]), pixels >= 0, pixels <= 100_000 {
                bezel = .pixels(pixels)
            } else if let fraction = Double(parts[2]), fraction.isFinite, fraction >= 0, fraction < 1 {
                bezel = .fraction(fraction)
            } else {
                return fail("the bezel must be pixels (a whole number, 0 or more) or a fraction of a tile below 1")
            }
        }
        return .success(VideoWall(columns: columns, rows: rows, column: column, row: row, bezel: bezel))
    }

    /// The crop that leaves this tile of a picture `codedWidth` × `height` pixels. A bezel too
    /// wide for the picture (no pixel left for a tile) counts as none.
    public func crop(codedWidth: Int, height: Int) -> VideoCrop {
        let across = Self.span(of: column, count: columns, length: codedWidth, bezel: bezel)
        let down = Self.span(of: row, count: rows, length: height, bezel: bezel)
        return VideoCrop(left: across.lowerBound, right: codedWidth - across.upperBound,
                         top: down.lowerBound, bottom: height - down.upperBound)
    }

    /// The pixels `[start, end)` of tile `index` of `count` along a side `length` long.
    static func span(of index: Int, count: Int, length: Int, bezel: Bezel) -> Range<Int> {
        guard count > 1, length > 0 else { return 0..<max(0, length) }
        let gaps = Double(count - 1)
        var tile: Double
        var gap: Double
        switch bezel {
        case .pixels(let pixels):
            gap = Double(pixels)
            tile = (Double(length) - gaps * gap) / Double(count)
        case .fraction(let fraction):
            tile = Double(length) / (Double(count) + gaps * fraction)
            gap = tile * fraction
        }
        if tile < 1 {   // no room for the bezel: tiles side by side
            gap = 0
            tile = Double(length) / Double(count)
        }
        let start = WholeNumber.clamped((Double(index) * (tile + gap)).rounded(), to: 0...length)
        let end = WholeNumber.clamped((Double(index) * (tile + gap) + tile).rounded(), to: start...length)
        return start..<max(end, min(start + 1, length))
    }
}
