import BackendCore

/// Where the seek preview draws, in the video frame's pixels: a thin bar along the bottom
/// (its track, and the part up to the target filled), and the picture of the target time above
/// it, centred on the target's place on the bar and kept inside the frame. The pointer over the
/// bottom strip (``hoverZoneTop``…bottom) points at a time. Pure; any thread; unit-tested.
public struct SeekPreviewLayout: Sendable, Hashable {
    /// A rectangle in frame pixels.
    public struct Rect: Sendable, Hashable {
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width (at least 1).
        public var width: Int
        /// Height (at least 1).
        public var height: Int

        /// A rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The frame's size.
    public let frameWidth: Int, frameHeight: Int
    /// The whole bar.
    public let bar: Rect

    /// The layout for a frame of `frameWidth × frameHeight`.
    public init(frameWidth: Int, frameHeight: Int) {
        self.frameWidth = max(frameWidth, 1)
        self.frameHeight = max(frameHeight, 1)
        let height = max(3, self.frameHeight / 48), margin = max(2, self.frameWidth / 40), bottom = max(2, self.frameHeight / 40)
        bar = Rect(x: margin, y: self.frameHeight - bottom - height, width: max(1, self.frameWidth - 2 * margin), height: height)
    }

    /// The top of the strip where the pointer points at a time: the bar and a tenth of the
    /// frame above it (at least three bar heights), so the bar is easy to hit.
    public var hoverZoneTop: Int { bar.y - max(frameHeight / 10, 3 * bar.height) }

    /// The filled part of the bar for `fraction` (0…1) of the media, nil when nothing is filled.
    public func filled(fraction: Double) -> Rect? {
        let width = Int((Double(bar.width) * Self.clamped(fraction)).rounded())
        return width > 0 ? Rect(x: bar.x, y: bar.y, width: width, height: bar.height) : nil
    }

    /// The picture's place for a picture of `width × height` at `fraction` of the media: a
    /// quarter of the frame wide (at most 40 % of its height tall), its bottom two bar heights
    /// above the bar, centred on the target's place and kept one ``borderWidth`` inside the frame.
    public func picture(width: Int, height: Int, fraction: Double) -> Rect {
        var shownWidth = max(1, frameWidth / 4)
        var shownHeight = max(1, Int((Double(shownWidth) * Double(max(height, 1)) / Double(max(width, 1))).rounded()))
        let tallest = max(1, frameHeight * 2 / 5)
        if shownHeight > tallest {
            shownWidth = max(1, Int((Double(shownWidth) * Double(tallest) / Double(shownHeight)).rounded()))
            shownHeight = tallest
        }
        let centre = bar.x + Int((Double(bar.width) * Self.clamped(fraction)).rounded())
        let left = min(max(centre - shownWidth / 2, borderWidth), max(borderWidth, frameWidth - borderWidth - shownWidth))
        let top = max(borderWidth, bar.y - 2 * bar.height - shownHeight)
        return Rect(x: left, y: top, width: shownWidth, height: shownHeight)
    }

    /// The dark frame drawn around the picture, this many pixels wide (even, and at least 4: frames
    /// are often 4:2:0, whose colour is blended at half the resolution).
    public var borderWidth: Int { max(2, frameWidth / 480) * 2 }

    /// `rect` grown by ``borderWidth`` on every side (the border behind the picture).
    public func border(around rect: Rect) -> Rect {
        Rect(x: rect.x - borderWidth, y: rect.y - borderWidth, width: rect.width + 2 * borderWidth, height: rect.height + 2 * borderWidth)
    }

    /// The fraction of the media the pointer at (`x`, `y`) points at, nil when it is above the
    /// hover strip or outside the frame.
    public func fraction(pointerX x: Double, y: Double) -> Double? {
        guard x.isFinite, y.isFinite, y >= Double(hoverZoneTop), y <= Double(frameHeight), x >= 0, x <= Double(frameWidth) else { return nil }
        return Self.clamped((x - Double(bar.x)) / Double(bar.width))
    }

    private static func clamped(_ fraction: Double) -> Double { fraction.isFinite ? min(max(fraction, 0), 1) : 0 }
}
