import Backend

/// The wire form of tracks, selections and cues: the `tracks`, `track-selected` and
/// `subtitle` events and the `tracks` reply. Pure; any thread.
public enum WireTracks {
    /// One stream: `{"index":0,"type":"audio","codec":"Vorbis","language":"en",…}`.
    public struct Track: Encodable, Sendable, Equatable {
        package var index: Int
        package var type: String
        @Nullable package var codec: String?
        @Nullable package var language: String?
        @Nullable package var languageName: String?
        @Nullable package var title: String?
        package var `default`: Bool
        @Nullable package var forced: Bool?
        package var external: Bool
        @Nullable package var width: Int?
        @Nullable package var height: Int?
        @Nullable package var framerate: String?
        @Nullable package var pixelAspectRatio: String?
        @Nullable package var channels: Int?
        @Nullable package var sampleRate: Int?
        @Nullable package var bitrate: Int?

        package init(_ track: MediaTrack) {
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
        @Nullable package var video: Int?
        @Nullable package var audio: Int?
        @Nullable package var subtitle: Int?
        package init(_ selection: TrackSelection) { video = selection.video; audio = selection.audio; subtitle = selection.subtitle }
    }

    /// `tracks` event / reply data.
    public struct Tracks: Encodable, Sendable, Equatable {
        package var tracks: [Track]
        package var selected: Selection
        package init(_ tracks: [MediaTrack], _ selection: TrackSelection) { self.tracks = tracks.map(Track.init); selected = Selection(selection) }
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
