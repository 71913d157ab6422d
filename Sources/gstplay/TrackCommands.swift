import Backend
import BackendControl

/// The track console commands (`tracks`, `track audio|subtitle|video N|none`, `sub-file`,
/// `sub-offset`, `audio-offset`), the `a`/`s`/`v` cycling keys and the track table. Runs on the
/// CLI actor like the other commands; the parsing and formatting are pure.
extension TrackCommands {
    // MARK: Running

    /// Runs a track command. A selection made before the media's tracks are known is kept by
    /// `session` and applied when they are; a selection is reported once, by the
    /// `track-selected` event (its note), not by the command too.
    static func execute(_ command: ConsoleCommand, player: Player, session: TrackSession? = nil) -> PlaybackController.Outcome {
        switch command {
        case .tracks:
            let tracks = player.tracks
            guard !tracks.isEmpty else { return .failure("tracks: no streams known yet (nothing loaded, or not prerolled)") }
            let selection = player.trackSelection
            return PlaybackController.Outcome(data: .tracks(WireTracks.Tracks(tracks, selection)), text: table(tracks, selection))
        case .track(let kind, let index):
            if let session, TrackSession.tracksPending(player) {
                session.selectWhenKnown(kind, index)
                return .success
            }
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
            return PlaybackController.Outcome(text: ["Subtitle file \(path) added"])
        case .subOffset(let milliseconds):
            player.setSubtitleOffset(milliseconds: milliseconds)
            return PlaybackController.Outcome(text: ["Subtitle offset \(milliseconds) ms"])
        case .audioOffset(let milliseconds):
            player.setAudioOffset(milliseconds: milliseconds)
            return PlaybackController.Outcome(text: ["Audio offset \(milliseconds) ms"])
        default:
            return .success
        }
    }

    /// The `a`/`s`/`v` keys: the next track of `kind` (subtitles go to "none" after the last).
    static func cycle(_ kind: TrackKind, player: Player) -> PlaybackController.Outcome {
        switch next(kind, tracks: player.tracks, selection: player.trackSelection) {
        case .failure(let error): return .failure(error.message)
        case .success(let index): return execute(.track(kind, index), player: player)
        }
    }

    /// The index after the current one (pure): wraps for audio/video; subtitles run 0…n-1, off, 0…
    static func next(_ kind: TrackKind, tracks: [MediaTrack], selection: TrackSelection) -> Result<Int?, ConsoleError> {
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
    static func describe(_ track: MediaTrack) -> String {
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
    static func table(_ tracks: [MediaTrack], _ selection: TrackSelection) -> [String] {
        tracks.map { (selection[$0.kind] == $0.index ? "* " : "  ") + describe($0) }
    }
}

/// Applies the track options (the CLI actor owns it): the offsets and `--sub-file` once before
/// the queue starts, `--audio-track` / `--sub-track` when each item's first track list arrives.
final class TrackSession {
    let settings: TrackSettings
    private var selectionPending: Bool
    /// `track` commands given before the current item's tracks were known, in order.
    private var requested: [(kind: TrackKind, index: Int?)] = []
    /// `--resume`'s choices for the loading item, given back once its tracks are known.
    private var restoring: ResumeSettings?

    init(settings: TrackSettings) {
        self.settings = settings
        selectionPending = settings.audioTrack != nil || settings.subtitleTrack != nil
    }

    /// Before the first item loads; returns error lines to print.
    func start(_ player: Player) -> [String] {
        if settings.subtitleOffset != 0 { player.setSubtitleOffset(milliseconds: settings.subtitleOffset) }
        if settings.audioOffset != 0 { player.setAudioOffset(milliseconds: settings.audioOffset) }
        var lines: [String] = []
        if settings.subtitleFiles.count > 1 {
            lines.append("gstplay: warning: only one subtitle file is used (playbin takes one): \(settings.subtitleFiles.last!)")
        }
        if let file = settings.subtitleFiles.last {
            do throws(PlayerError) { try player.addSubtitleFile(file) } catch { lines.append("gstplay: error: --sub-file: \(error.message)") }
        }
        return lines
    }

    /// Another queue item became current: its tracks get the options again.
    func itemChanged() {
        selectionPending = settings.audioTrack != nil || settings.subtitleTrack != nil
    }

    /// A load is under way whose tracks are not known yet (nothing prerolled): a `track`
    /// command waits for them instead of being refused.
    static func tracksPending(_ player: Player) -> Bool {
        guard player.tracks.isEmpty else { return false }
        let snapshot = player.snapshot
        return snapshot.state == .opening || (snapshot.state == .idle && snapshot.uri != nil) || snapshot.queueItemPending
    }

    /// Keeps a `track` command until the tracks are known (``tracksArrived(_:)``).
    func selectWhenKnown(_ kind: TrackKind, _ index: Int?) {
        requested.append((kind, index))
    }

    /// `--resume`'s choices for the item loading: its track selections wait with the `track`
    /// commands (the options still win over them), then its A-B loop and subtitle file follow.
    func restoreWhenKnown(_ settings: ResumeSettings) {
        requested += settings.trackSelections
        restoring = settings
    }

    /// The first `tracksChanged` of an item: selects what `track` commands (and `--resume`)
    /// asked for meanwhile, then what the options ask for; returns error lines.
    func tracksArrived(_ player: Player) -> [String] {
        var lines = applyRequested(player)
        if let settings = restoring {
            restoring = nil
            lines += settings.applyWhenPrerolled(to: player).map { "gstplay: warning: resume: \($0)" }
        }
        guard selectionPending else { return lines }
        selectionPending = false
        if let audio = settings.audioTrack {
            do throws(PlayerError) { try player.selectAudioTrack(audio) } catch { lines.append("gstplay: error: --audio-track \(audio): \(error.message)") }
        }
        if let subtitle = settings.subtitleTrack {
            do throws(PlayerError) { try player.selectSubtitleTrack(subtitle) } catch { lines.append("gstplay: error: --sub-track: \(error.message)") }
        }
        return lines
    }

    private func applyRequested(_ player: Player) -> [String] {
        defer { requested.removeAll() }
        return requested.compactMap { request -> String? in
            do throws(PlayerError) { try player.selectTrack(request.kind, request.index) } catch {
                return "gstplay: error: track \(request.kind.rawValue) \(request.index.map(String.init) ?? "none"): \(error.message)"
            }
            return nil
        }
    }
}

extension TracksEvent {
    /// The streams or the selection changed (``TracksEvent/tracksChanged(_:selection:)``).
    var isTracksChanged: Bool { if case .tracksChanged = self { true } else { false } }
}
