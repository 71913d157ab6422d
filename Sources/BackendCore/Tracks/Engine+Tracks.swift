import CGStreamer
import Glibc

/// Tracks, subtitles and offsets (loop thread): stream info, selection (playbin `current-*`), the external subtitle file (`suburi`, applied by a reload that keeps
/// position and intent), cue events from the ``SubtitleCueSink``, `text-offset`/`av-offset`.
extension Engine {
    /// Init: the cue sink as `text-sink` (``SubtitleRendering/events``) and the
    /// `video-changed`/`audio-changed`/`text-changed` signals, which re-read the streams.
    func connectTracks() {
        guard let pipeline, let playbin = pipeline.object else { return }
        if configuration.subtitleRendering == .events {
            let sink = SubtitleCueSink()
            if let element = sink.element {
                CGStreamer_set_object(playbin, "text-sink", UnsafeMutableRawPointer(element))
                sink.connect(to: pipeline) { [loop, weak self] cue in
                    _ = loop.invoke { [weak self] in self?.cueArrived(cue) }
                }
                tracks.cueSink = sink
                pipeline.positionSinks = [sinks.video, sinks.audio].compactMap { $0 }
            }
        }
        for signal in ["video-changed", "audio-changed", "text-changed"] {
            let box = CallbackBox<(MainLoopThread, Engine)>((loop, self))
            let id = CGStreamer_signal_connect_1(playbin, signal, { _, data in
                guard let data else { return }
                let (loop, engine) = CallbackBox<(MainLoopThread, Engine)>.from(data).value
                _ = loop.invoke { [weak engine] in engine?.publishTracks() }
            }, box.retainedPointer, callbackBoxClosureRelease)
            pipeline.track(handler: id, on: playbin)
        }
    }

    /// Load: forgets the old media's tags and streams; sets `suburi` (the file stays only for a
    /// reload of the same media).
    func prepareTracks(forLoadOf uri: String) {
        guard let playbin = pipeline?.object else { return }
        tracks.prepareLoad(uri: uri)
        if let deferred = tracks.deferredSubtitle {
            tracks.deferredSubtitle = nil
            tracks.subtitleURI = deferred
            tracks.subtitleForMediaURI = uri
            tracks.awaitingExternal = true
        }
        if let subtitle = tracks.subtitleURI { CGStreamer_set_string(playbin, "suburi", subtitle) } else { CGStreamer_set_string(playbin, "suburi", nil) }
    }

    /// Preroll: restores the selection kept over a reload, selects a newly added subtitle file
    /// (or warns that it brought no stream), runs a deferred ``addSubtitleFile(_:)``, publishes.
    func tracksPrerolled() {
        guard let playbin = pipeline?.object else { return }
        if let keep = tracks.restoreSelection {
            tracks.restoreSelection = nil
            for kind in [TrackKind.video, .audio, .subtitle] {
                if let index = keep[kind] { CGStreamer_set_int(playbin, StreamInspector.currentProperty(kind), gint(index)) }
            }
        }
        if tracks.awaitingExternal {
            tracks.awaitingExternal = false
            if let playbinElement = pipeline?.element,
               let external = StreamInspector.tracks(of: playbinElement).first(where: \.isExternal) {
                setSubtitlesOn(true)
                CGStreamer_set_int(playbin, "current-text", gint(external.index))
                publish(.trackSelected(.subtitle, index: external.index))
                // The selector dropped what reached the new pad while it was inactive: a
                // flushing seek (the start seek, if the reload has one) sends it again.
                if seeks.pending == nil, !facts.isLive { seeks.pending = (.absolute(pipeline?.queryPosition() ?? .zero), .accurate) }
            } else {
                let name = tracks.subtitleURI ?? "?"
                tracks.subtitleURI = nil
                publish(.warning(PlayerError(kind: .invalidInput, element: "playbin",
                                             message: "subtitle file \(name) gave no subtitle stream (unknown format or broken file); playing on without it",
                                             uri: facts.uri)))
            }
        }
        publishTracks(force: true)
    }

    /// Reads the streams and selection; publishes ``PlayerEvent/tracksChanged(_:selection:)``
    /// when they differ from the last ones (always with `force`).
    func publishTracks(force: Bool = false) {
        guard let playbin = pipeline?.element, playback.inputs.prerolled, !playback.inputs.failed else { return }
        let list = StreamInspector.tracks(of: playbin)
        let selection = StreamInspector.selection(of: playbin, subtitlesOn: !tracks.subtitlesOff)
        let changed = tracks.published.withLock { current -> Bool in
            guard current.tracks != list || current.selection != selection else { return false }
            current = (list, selection)
            return true
        }
        if changed || force { publish(.tracksChanged(list, selection: selection)) }
    }

    /// Switches `kind` to `index` (nil: subtitles off). Indices were checked by ``Player``;
    /// a stream that vanished since gets a warning and changes nothing.
    func selectTrack(_ kind: TrackKind, _ index: Int?) {
        preconditionOnLoop()
        guard let playbin = pipeline?.object, playback.inputs.prerolled else { return }
        let count = Int(CGStreamer_get_int(playbin, StreamInspector.countProperty(kind)))
        if let error = TrackSelectionRule.check(kind, index, available: count) {
            publish(.warning(error))
            return
        }
        if kind == .subtitle { setSubtitlesOn(index != nil) }
        let current = Int(CGStreamer_get_int(playbin, StreamInspector.currentProperty(kind)))
        if let index { CGStreamer_set_int(playbin, StreamInspector.currentProperty(kind), gint(index)) }
        publish(.trackSelected(kind, index: index))
        publishTracks()
        // playbin's input-selector switches in place, but what is queued after it (about a
        // second of audio; for a small file every subtitle, and the EOS of the new subtitle
        // stream, which then never comes: see docs/ADR-001-playbin.md) goes out first. An
        // accurate flushing seek to the current position drops it.
        guard let index, index != current, kind == .subtitle || configuration.flushOnTrackSwitch, !facts.isLive,
              let position = pipeline?.queryPosition() else { return }
        requestSeek(.absolute(position), mode: .accurate)
    }

    /// Adds `uri` as the external subtitle (replacing an earlier one: playbin has one `suburi`).
    /// Takes effect by reloading the media at the current position, keeping play/pause.
    func addSubtitleFile(_ uri: String) {
        preconditionOnLoop()
        guard let mediaURI = facts.uri, playback.inputs.loaded, !playback.inputs.failed else {
            tracks.deferredSubtitle = uri // set as `suburi` by the next load
            return
        }
        let position = playback.inputs.prerolled ? pipeline?.queryPosition() : nil
        let paused = playback.inputs.intent == .pause
        tracks.restoreSelection = tracks.published.withLock { $0.selection }
        tracks.restoreSelection?.subtitle = nil
        tracks.subtitleURI = uri
        tracks.subtitleForMediaURI = mediaURI
        tracks.awaitingExternal = true
        let ended = playback.inputs.ended
        load(.success(mediaURI), original: mediaURI, start: ended ? nil : position.map { .time($0) })
        if paused || ended { pause() }
    }

    /// Sets playbin `text-offset` (ns) from milliseconds.
    func setSubtitleOffset(milliseconds: Int64) {
        guard let playbin = pipeline?.object else { return }
        tracks.offsets.withLock { $0.subtitle = milliseconds }
        CGStreamer_set_int64(playbin, "text-offset", gint64(MediaTime.milliseconds(milliseconds).nanoseconds))
    }

    /// Sets playbin `av-offset` (ns) from milliseconds.
    func setAudioOffset(milliseconds: Int64) {
        guard let playbin = pipeline?.object else { return }
        tracks.offsets.withLock { $0.audio = milliseconds }
        CGStreamer_set_int64(playbin, "av-offset", gint64(MediaTime.milliseconds(milliseconds).nanoseconds))
    }

    /// A cue reached the text sink: published with the subtitle offset applied to its times,
    /// when it is due (``publishWhenDue(_:)``).
    private func cueArrived(_ raw: SubtitleCueSink.RawCue) {
        guard playback.inputs.loaded, playback.inputs.prerolled, !playback.inputs.failed, !tracks.subtitlesOff, !raw.text.isEmpty else { return }
        let offset = MediaTime.milliseconds(tracks.offsets.withLock { $0.subtitle })
        publishWhenDue(SubtitleCue(text: raw.text, start: raw.start + offset, end: raw.end.map { $0 + offset }))
    }

    /// Subtitles on or off without touching playbin's `flags` (changing the `text` flag while
    /// playing left playbin without EOS in 1.22): cues are dropped while off, and with
    /// ``SubtitleRendering/overlay`` every `subtitleoverlay` in playbin is made `silent`.
    private func setSubtitlesOn(_ on: Bool) {
        guard tracks.subtitlesOff == on else { return }
        tracks.subtitlesOff = !on
        guard configuration.subtitleRendering == .overlay, let playbin = pipeline?.element,
              let iterator = gst_bin_iterate_all_by_element_factory_name(CGStreamer_as_bin(playbin), "subtitleoverlay") else { return }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let overlay = g_value_get_object(&value) { CGStreamer_set_boolean(overlay, "silent", on ? 0 : 1) }
            g_value_reset(&value)
        }
        g_value_unset(&value)
    }
}
