import Foundation

/// Paths of the committed media in `Fixtures/`.
public enum TestMedia {
    /// The package root, found from this file's path (`<root>/Tests/TestSupport/TestMedia.swift`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The absolute path of `Fixtures/<name>`.
    public static func path(_ name: String) -> String { root.appendingPathComponent("Fixtures").appendingPathComponent(name).path }

    /// 10 s H.264/AAC MP4, 320x240 at 30 fps.
    public static let h264 = path("h264-aac-10s.mp4")
    /// 4 s VP8/Opus WebM, 320x240.
    public static let vp8 = path("vp8-opus-4s.webm")
    /// 4 s Theora/Vorbis Ogg.
    public static let theora = path("theora-vorbis-4s.ogg")
    /// 4 s Vorbis, no video.
    public static let audioOnly = path("audio-only-4s.ogg")
    /// 720x576 with pixel aspect ratio 64:45 (displays as 1024x576).
    public static let nonSquare = path("par-64-45.mkv")
    /// Changes from 320x240 to 640x480 mid-stream.
    public static let sizeChange = path("size-change.webm")
    /// 0.2 s MP4.
    public static let short = path("short-0.2s.mp4")
    /// An MP4 cut short.
    public static let truncated = path("truncated.mp4")
    /// An MP4 without its `moov` box.
    public static let noMoov = path("no-moov.mp4")
    /// Random bytes.
    public static let garbage = path("garbage.bin")
    /// Zero bytes.
    public static let empty = path("empty.mp4")
    /// 3 s MP3 with an ID3 tag (title "Test Tone", artist "gstplay Fixtures", …) and ``coverArt`` as its front cover.
    public static let taggedMP3 = path("tagged-cover.mp3")
    /// 3 s Vorbis with Vorbis comments (title "Ogg Tone", artist "gstplay Fixtures", …), no picture.
    public static let taggedOgg = path("tagged.ogg")
    /// The 128x128 PNG (SMPTE bars) embedded in ``taggedMP3``.
    public static let coverArt = path("cover-art.png")
}
