import BackendCore
import CGStreamer

/// Lays images out in a grid with an optional caption on each tile and encodes the sheet as PNG,
/// all in GStreamer: one `appsrc ! pngdec|jpegdec [! videoconvert ! textoverlay]` branch per tile into
/// a `compositor` (pads placed with `xpos`/`ypos`), then `videoconvert ! pngenc ! fakesink`
/// whose `last-sample` is the sheet. No pixel is touched in Swift.
///
/// **Thread:** ``compose(_:columns:spacing:timeout:)`` blocks; call it from any thread except a
/// `Player`'s loop thread.
public enum ContactSheet {
    /// One cell of the sheet.
    public struct Tile: Sendable, Hashable {
        /// The picture (PNG or JPEG).
        public var image: Image
        /// The caption drawn on its lower left corner (e.g. the frame's time), or nil for none
        /// (e.g. when ``ThumbnailGenerator/burnsInTime`` already drew it).
        public var caption: String?

        /// Creates a tile.
        public init(image: Image, caption: String?) {
            self.image = image
            self.caption = caption
        }
    }

    /// The geometry of a sheet: every cell is as large as the largest tile; tiles are centred
    /// in their cells, with `spacing` pixels of black around and between cells. Pure.
    public struct Layout: Sendable, Hashable {
        /// Sheet width and height in pixels.
        public var width: Int, height: Int
        /// Top-left corner of each tile, in tile order.
        public var origins: [(x: Int, y: Int)]

        /// Computes the layout of `sizes` in `columns` columns (at most one per tile).
        public init(sizes: [(width: Int, height: Int)], columns: Int, spacing: Int) {
            let columns = max(1, min(columns, sizes.count))
            let rows = (sizes.count + columns - 1) / columns
            let cellWidth = sizes.map(\.width).max() ?? 0
            let cellHeight = sizes.map(\.height).max() ?? 0
            width = columns * cellWidth + (columns + 1) * spacing
            height = rows * cellHeight + (rows + 1) * spacing
            origins = sizes.enumerated().map { index, size in
                let column = index % columns, row = index / columns
                return (spacing + column * (cellWidth + spacing) + (cellWidth - size.width) / 2,
                        spacing + row * (cellHeight + spacing) + (cellHeight - size.height) / 2)
            }
        }

        /// Equal sizes and origins.
        public static func == (lhs: Layout, rhs: Layout) -> Bool {
            lhs.width == rhs.width && lhs.height == rhs.height
                && lhs.origins.map(\.x) == rhs.origins.map(\.x) && lhs.origins.map(\.y) == rhs.origins.map(\.y)
        }

        /// Hashes the sizes and origins.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(width); hasher.combine(height)
            for origin in origins { hasher.combine(origin.x); hasher.combine(origin.y) }
        }
    }

    /// Composes `tiles` into one PNG sheet, `columns` wide. Throws `.invalidArgument` for no
    /// tiles, `.conversion` when the pipeline fails, `.timeout` when it does not finish in time.
    public static func compose(_ tiles: [Tile], columns: Int, spacing: Int = 4,
                               timeout: Duration = .seconds(30)) throws(ImageError) -> Image {
        guard !tiles.isEmpty else { throw ImageError(kind: .invalidArgument, message: "no tiles to compose") }
        guard columns > 0 else { throw ImageError(kind: .invalidArgument, message: "columns must be at least 1 (got \(columns))") }
        GStreamerRuntime.ensureInitialized()
        let layout = Layout(sizes: tiles.map { ($0.image.width, $0.image.height) }, columns: columns, spacing: max(0, spacing))
        let graph = try SheetPipeline(layout: layout, tiles: tiles)
        defer { graph.close() }
        return try graph.run(timeout: timeout)
    }
}
