import Backend

/// The wire form of tracks, selections and cues: the `tracks`, `track-selected` and
/// `subtitle` events and the `tracks` reply. Pure; any thread.
public enum WireTracks {
    /// One stream: `{"index":0,"type":"audio","codec":"Vorbis","language":"en",…}`.
    public struct Track: Encodable, Sendable, Equatable {
        /// The track's index among the tracks of its kind.
        public var index: Int
        /// `video`, `audio` or `subtitle`.
        public var type: String
        /// The codec's description.
        @Nullable public var codec: String?
        /// The language code.
        @Nullable public var language: String?
        /// The language's name.
        @Nullable public var languageName: String?
        /// The track's title.
        @Nullable public var title: String?
        /// Marked as the default track by the container.
        public var `default`: Bool
        /// Marked as forced (null: not said).
        @Nullable public var forced: Bool?
        /// From a subtitle file added, not the media.
        public var external: Bool
        /// Video: width in pixels.
        @Nullable public var width: Int?
        /// Video: height in pixels.
        @Nullable public var height: Int?
        /// Video: frames per second as a fraction (`30/1`).
        @Nullable public var framerate: String?
        /// Video: the pixel aspect ratio (`1/1`).
        @Nullable public var pixelAspectRatio: String?
        /// Audio: channels.
        @Nullable public var channels: Int?
        /// Audio: samples per second.
        @Nullable public var sampleRate: Int?
        /// Audio: bits per second.
        @Nullable public var bitrate: Int?

        /// The fields of `track`.
        public init(_ track: MediaTrack) {
            index = track.index
            type = track.kind.rawValue
            codec = track.codec
            language = track.languageCode
            languageName = track.languageName
            title = track.title
            `default` = track.isDefault
            forced = track.isForced
            external = track.isExternal
            if let video = track.video {
                width = video.width
                height = video.height
                framerate = "\(video.frameRateNumerator)/\(video.frameRateDenominator)"
                pixelAspectRatio = "\(video.pixelAspectNumerator)/\(video.pixelAspectDenominator)"
            }
            if let audio = track.audio, audio.channels > 0 {
                channels = audio.channels
                sampleRate = audio.sampleRate
            }
            bitrate = track.audio?.bitrate
        }
    }

    /// The selected index per type (null: none / off).
    public struct Selection: Encodable, Sendable, Equatable {
        /// The selected video track (null: none).
        @Nullable public var video: Int?
        /// The selected audio track (null: none).
        @Nullable public var audio: Int?
        /// The selected subtitle track (null: none).
        @Nullable public var subtitle: Int?
        /// The fields of `selection`.
        public init(_ selection: TrackSelection) { video = selection.video; audio = selection.audio; subtitle = selection.subtitle }
    }

    /// `tracks` event / reply data.
    public struct Tracks: Encodable, Sendable, Equatable {
        /// Every stream.
        public var tracks: [Track]
        /// The selection.
        public var selected: Selection
        /// The fields of `tracks` and `selection`.
        public init(_ tracks: [MediaTrack], _ selection: TrackSelection) { self.tracks = tracks.map(Track.init); selected = Selection(selection) }
    }

    package struct Selected: Encodable, Sendable { var type: String; @Nullable var index: Int? }
    package struct Cue: Encodable, Sendable { var text: String; var start: Seconds; var end: Seconds }

    /// The line for a track event; nil for other events.
    public static func line(for event: PlayerEvent) -> String? {
        switch event.tracksEvent {
        case .tracksChanged(let tracks, let selection):
            return Wire.line(WireEvent(event: "tracks", payload: Tracks(tracks, selection)))
        case .trackSelected(let kind, let index):
            return Wire.line(WireEvent(event: "track-selected", payload: Selected(type: kind.rawValue, index: index)))
        case .subtitleCue(let cue):
            return Wire.line(WireEvent(event: "subtitle", payload: Cue(text: cue.text, start: Seconds(cue.start), end: Seconds(cue.end))))
        case nil:
            return nil
        }
    }
}
