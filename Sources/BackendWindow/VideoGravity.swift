import BackendCore

/// How the video fills the area it is drawn into (seed 003's video gravity).
public enum VideoGravity: String, Sendable, Hashable, Codable, CaseIterable {
    /// The whole picture, aspect ratio kept, bars where the shapes differ (sink `force-aspect-ratio=true`).
    case fit
    /// The whole area, aspect ratio kept, the picture's overflow cropped (`videocrop` before the sink).
    case fill
    /// The whole area, the picture distorted to its shape (sink `force-aspect-ratio=false`).
    case stretch
}

/// Pixels to cut from each side of the coded picture (`videocrop` `left`/`right`/`top`/`bottom`).
public struct VideoCrop: Sendable, Hashable, Codable {
    /// Coded pixels cut on the left.
    public var left: Int
    /// Coded pixels cut on the right.
    public var right: Int
    /// Rows cut at the top.
    public var top: Int
    /// Rows cut at the bottom.
    public var bottom: Int

    /// No cropping.
    public static let none = VideoCrop(left: 0, right: 0, top: 0, bottom: 0)

    /// Creates the value.
    public init(left: Int, right: Int, top: Int, bottom: Int) {
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
    }

    /// The crop that makes `video` (display size, PAR applied) fill an area of
    /// `areaWidth` × `areaHeight` with its aspect ratio kept: the picture is scaled until it covers
    /// the area and what overflows is cut evenly from both sides. ``none`` for a degenerate area (pure).
    public static func filling(_ video: VideoSize, areaWidth: Int, areaHeight: Int) -> VideoCrop {
        guard areaWidth > 0, areaHeight > 0, video.width > 0, video.height > 0, video.codedWidth > 0 else { return .none }
        let videoAspect = Double(video.width) / Double(video.height)
        let areaAspect = Double(areaWidth) / Double(areaHeight)
        if videoAspect > areaAspect {
            // Wider than the area: keep the height, cut the sides (in coded pixels).
            let keptDisplayWidth = Double(video.height) * areaAspect
            let keptCoded = keptDisplayWidth * Double(video.codedWidth) / Double(video.width)
            let cut = max(0, video.codedWidth - WholeNumber.clamped(keptCoded.rounded(), to: 0...Int.max))
            return VideoCrop(left: cut / 2, right: cut - cut / 2, top: 0, bottom: 0)
        } else if videoAspect < areaAspect {
            // Taller than the area: keep the width, cut top and bottom.
            let keptHeight = Double(video.width) / areaAspect
            let cut = max(0, video.height - WholeNumber.clamped(keptHeight.rounded(), to: 0...Int.max))
            return VideoCrop(left: 0, right: 0, top: cut / 2, bottom: cut - cut / 2)
        }
        return .none
    }
}

/// Where in the window the video is drawn (`gst_video_overlay_set_render_rectangle`).
public struct RenderRectangle: Sendable, Hashable, Codable {
    /// Left edge in window pixels.
    public var x: Int
    /// Top edge in window pixels.
    public var y: Int
    /// Width in pixels (> 0).
    public var width: Int
    /// Height in pixels (> 0).
    public var height: Int

    /// Creates the value.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
