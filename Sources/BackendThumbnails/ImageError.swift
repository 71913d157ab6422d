import BackendCore
/// Why a snapshot, a thumbnail or a contact sheet could not be made.
public struct ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of the problem.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The media has no video stream (e.g. an audio-only file).
        case noVideo
        /// No frame is available (nothing prerolled yet, or the seek found none).
        case noFrame
        /// The requested time is at or after the end of the media.
        case timePastEnd
        /// The location names a directory, not a media file.
        case isDirectory
        /// The media could not be opened or decoded (GStreamer's error is in ``ImageError/underlying``).
        case open
        /// The duration is unknown, so times cannot be spread over it.
        case unknownDuration
        /// Converting or encoding the frame failed (`gst_video_convert_sample`, `convert-sample`).
        case conversion
        /// GStreamer did not answer in time.
        case timeout
        /// The argument was unusable (a zero count, an empty list of tiles…).
        case invalidArgument
    }

    /// The class of the problem.
    public var kind: Kind
    /// One line for a person.
    public var message: String
    /// GStreamer's own error, when one caused it.
    public var underlying: PlayerError?

    /// Creates an error value.
    public init(kind: Kind, message: String, underlying: PlayerError? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    /// The message alone (the CLI adds the location in front).
    public var description: String { message }
}
