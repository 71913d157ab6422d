import Backend

/// The track console commands (`tracks`, `track audio|subtitle|video N|none`, `sub-file`,
/// `sub-offset`, `audio-offset`), the `a`/`s`/`v` cycling keys and the track table. Runs on the
/// ``PlayerControl`` actor like the other commands; the parsing and formatting are pure.
extension TrackCommands {
    // MARK: Running

    /// Runs a track command. A selection is reported once, by the `track-selected` event (its
    /// note), not by the command too. (A selection made before the media's tracks are known is
    /// kept by the ``PlayerControl``'s track session, when it has one: ``PlayerControl/Configuration/tracks``.)
    public static func execute(_ command: ConsoleCommand, player: Player) -> CommandOutcome {
        switch command {
        case .tracks:
            let tracks = player.tracks
            guard !tracks.isEmpty else { return .failure("tracks: no streams known yet (nothing loaded, or not prerolled)") }
            let selection = player.trackSelection
            return CommandOutcome(data: .tracks(WireTracks.Tracks(tracks, selection)), text: table(tracks, selection))
        case .track(let kind, let index):
            do throws(PlayerError) {
                try player.selectTrack(kind, index)
            } catch {
                return .failure("track: \(error.message)")
            }
            return .success
        case .subFile(let path):
            do throws(PlayerError) {
                try player.addSubtitleFile(path)
            } catch {
                return .failure("sub-file: \(error.message)")
            }
            return CommandOutcome(text: ["Subtitle file \(path) added"])
        case .subOffset(let milliseconds):
            player.setSubtitleOffset(milliseconds: milliseconds)
            return CommandOutcome(text: ["Subtitle offset \(milliseconds) ms"])
        case .audioOffset(let milliseconds):
            player.setAudioOffset(milliseconds: milliseconds)
            return CommandOutcome(text: ["Audio offset \(milliseconds) ms"])
        default:
            return .success
        }
    }

    /// The `a`/`s`/`v` keys: the next track of `kind` (subtitles go to "none" after the last).
    public static func cycle(_ kind: TrackKind, player: Player) -> CommandOutcome {
        switch next(kind, tracks: player.tracks, selection: player.trackSelection) {
        case .failure(let error): return .failure(error.message)
        case .success(let index): return execute(.track(kind, index), player: player)
        }
    }

    /// The index after the current one (pure): wraps for audio/video; subtitles run 0…n-1, off, 0…
    public static func next(_ kind: TrackKind, tracks: [MediaTrack], selection: TrackSelection) -> Result<Int?, ConsoleError> {
        let count = tracks.filter { $0.kind == kind }.count
        guard count > 0 else { return .failure(ConsoleError("no \(kind.rawValue) tracks")) }
        let current = selection[kind]
        if kind == .subtitle {
            guard let current else { return .success(0) }
            return .success(current + 1 < count ? current + 1 : nil)
        }
        return .success(((current ?? -1) + 1) % count)
    }

    // MARK: Formatting

    /// `audio 1: Vorbis, de (German), "Deutsch-mono", 1 ch, 48000 Hz, 60 kb/s` (pure).
    public static func describe(_ track: MediaTrack) -> String {
        var parts: [String] = [track.codec ?? "unknown codec"]
        if let code = track.languageCode { parts.append(track.languageName.map { "\(code) (\($0))" } ?? code) }
        if let title = track.title { parts.append("\"\(title)\"") }
        if let video = track.video {
            var size = "\(video.width)x\(video.height)"
            if let fps = video.framesPerSecond { size += " " + CFormat.number("%.3g", fps) + " fps" }
            if video.pixelAspectNumerator != video.pixelAspectDenominator { size += " PAR \(video.pixelAspectNumerator):\(video.pixelAspectDenominator)" }
            parts.append(size)
        }
        if let audio = track.audio {
            if audio.channels > 0 { parts.append("\(audio.channels) ch, \(audio.sampleRate) Hz") }
            if let bitrate = audio.bitrate { parts.append("\(bitrate / 1000) kb/s") }
        }
        var flags: [String] = []
        if track.isDefault { flags.append("default") }
        if track.isForced == true { flags.append("forced") }
        if track.isExternal { flags.append("external") }
        return "\(track.kind.rawValue) \(track.index): " + parts.joined(separator: ", ") + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]")
    }

    /// The track table: one line per stream, `*` marking the selected ones (pure).
    public static func table(_ tracks: [MediaTrack], _ selection: TrackSelection) -> [String] {
        tracks.map { (selection[$0.kind] == $0.index ? "* " : "  ") + describe($0) }
    }
}

extension TrackCommands {
    /// A load is under way whose tracks are not known yet (nothing prerolled): a `track`
    /// command may wait for them instead of being refused.
    public static func tracksPending(_ player: Player) -> Bool {
        guard player.tracks.isEmpty else { return false }
        let snapshot = player.snapshot
        return snapshot.state == .opening || (snapshot.state == .idle && snapshot.uri != nil) || snapshot.queueItemPending
    }
}

extension TracksEvent {
    /// The streams or the selection changed (`TracksEvent/tracksChanged(_:selection:)`).
    public var isTracksChanged: Bool { if case .tracksChanged = self { true } else { false } }
}
