import Backend

/// Applies the track choices (a ``PlayerControl`` owns one): the offsets and the subtitle file once
/// before the queue starts, the track selections when each item's first track list arrives, with
/// the `track` commands given (and `--resume`'s choices restored) before the tracks were known.
/// Problems come back as lines (`error: …` / `warning: …`, naming gstplay's options), not thrown.
///
/// **Thread:** its owner's (the ``PlayerControl`` actor); not Sendable.
final class TrackSession {
    let settings: TrackChoices
    private var selectionPending: Bool
    /// `track` commands given before the current item's tracks were known, in order.
    private var requested: [(kind: TrackKind, index: Int?)] = []
    /// `--resume`'s choices for the loading item, given back once its tracks are known.
    private var restoring: ResumeSettings?

    init(choices settings: TrackChoices) {
        self.settings = settings
        selectionPending = settings.audioTrack != nil || settings.subtitleTrack != nil
    }

    /// Before the first item loads; returns problem lines.
    func start(_ player: Player) -> [String] {
        if settings.subtitleOffset != 0 { player.setSubtitleOffset(milliseconds: settings.subtitleOffset) }
        if settings.audioOffset != 0 { player.setAudioOffset(milliseconds: settings.audioOffset) }
        var lines: [String] = []
        if settings.subtitleFiles.count > 1 {
            lines.append("warning: only one subtitle file is used (playbin takes one): \(settings.subtitleFiles.last!)")
        }
        if let file = settings.subtitleFiles.last {
            do throws(PlayerError) { try player.addSubtitleFile(file) } catch { lines.append("error: --sub-file: \(error.message)") }
        }
        return lines
    }

    /// Another queue item became current: its tracks get the options again.
    func itemChanged() {
        selectionPending = settings.audioTrack != nil || settings.subtitleTrack != nil
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
    /// asked for meanwhile, then what the options ask for; returns problem lines.
    func tracksArrived(_ player: Player) -> [String] {
        var lines = applyRequested(player)
        if let settings = restoring {
            restoring = nil
            lines += settings.applyWhenPrerolled(to: player).map { "warning: resume: \($0)" }
        }
        guard selectionPending else { return lines }
        selectionPending = false
        if let audio = settings.audioTrack {
            do throws(PlayerError) { try player.selectAudioTrack(audio) } catch { lines.append("error: --audio-track \(audio): \(error.message)") }
        }
        if let subtitle = settings.subtitleTrack {
            do throws(PlayerError) { try player.selectSubtitleTrack(subtitle) } catch { lines.append("error: --sub-track: \(error.message)") }
        }
        return lines
    }

    private func applyRequested(_ player: Player) -> [String] {
        defer { requested.removeAll() }
        return requested.compactMap { request -> String? in
            do throws(PlayerError) { try player.selectTrack(request.kind, request.index) } catch {
                return "error: track \(request.kind.rawValue) \(request.index.map(String.init) ?? "none"): \(error.message)"
            }
            return nil
        }
    }
}
