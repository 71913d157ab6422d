import Backend

/// The wire form of tracks, selections and cues: the `tracks`, `track-selected` and
/// `subtitle` events and the `tracks` reply. Pure; any thread.
enum WireTracks {
    /// One stream: `{"index":0,"type":"audio","codec":"Vorbis","language":"en",…}`.
    struct Track: Encodable, Sendable, Equatable {
        var index: Int
        var type: String
        @Nullable var codec: String?
        @Nullable var language: String?
        @Nullable var languageName: String?
        @Nullable var title: String?
        var `default`: Bool
        @Nullable var forced: Bool?
        var external: Bool
        @Nullable var width: Int?
        @Nullable var height: Int?
        @Nullable var framerate: String?
        @Nullable var pixelAspectRatio: String?
        @Nullable var channels: Int?
        @Nullable var sampleRate: Int?
        @Nullable var bitrate: Int?

        init(_ track: MediaTrack) {
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
    struct Selection: Encodable, Sendable, Equatable {
        @Nullable var video: Int?
        @Nullable var audio: Int?
        @Nullable var subtitle: Int?
        init(_ selection: TrackSelection) { video = selection.video; audio = selection.audio; subtitle = selection.subtitle }
    }

    /// `tracks` event / reply data.
    struct Tracks: Encodable, Sendable, Equatable {
        var tracks: [Track]
        var selected: Selection
        init(_ tracks: [MediaTrack], _ selection: TrackSelection) { self.tracks = tracks.map(Track.init); selected = Selection(selection) }
    }

    struct Selected: Encodable, Sendable { var type: String; @Nullable var index: Int? }
    struct Cue: Encodable, Sendable { var text: String; var start: Seconds; var end: Seconds }

    /// The line for a track event; nil for other events.
    static func line(for event: PlayerEvent) -> String? {
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
