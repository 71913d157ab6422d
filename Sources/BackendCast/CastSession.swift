import BackendCore
import CGStreamer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GLibSupport
import HTTPServe

/// One cast to one renderer: the ``PlaybackRoute`` the core hands the player's commands to while
/// casting. It gives the renderer each item (a local file served over HTTP on the interface that
/// reaches it, an http(s) URI as it is), maps play/pause/seek/volume/mute/stop to AVTransport and
/// RenderingControl, and polls the renderer's state and position (CastSession+Polling.swift)
/// into the core's reports.
///
/// **Thread:** the player's loop thread only. The route calls come from the engine inside a
/// handler; ``RendererControl`` completions come from GUPnP outside one, so each goes through
/// ``CastFeature/later(_:)`` before it touches the player.
final class CastSession: PlaybackRoute {
    let renderer: Renderer
    let control: RendererControl
    unowned let feature: CastFeature
    /// The player's URI of the item given to the renderer (the original, not the served one).
    var currentURI: String?
    /// The URL the renderer was given for it.
    var servedURL: String?
    /// The server of the current local file (only that file, a random path), nil for http(s) media.
    var server: HTTPServer?
    var poll: TimerSource?
    /// A poll is in flight (one at a time).
    var polling = false
    /// The renderer reached PLAYING for the current item (a STOPPED after that is its end).
    var playedItem = false
    /// A `Stop` or a new URI was sent: the STOPPED that follows is ours, not the item's end.
    var expectingStop = false
    /// Where the item should start once the renderer plays it (a cast begun mid-item).
    var startAt: MediaTime?
    /// The item's end was reported to the core.
    var endReported = false
    var closed = false
    /// When gstplay last told the renderer to play, pause or load (monotonic ns): a state change
    /// the renderer reports later than 2 s after that was made on the renderer itself (its remote).
    var commandSentAt: UInt64 = 0
    /// The player is being told what the renderer did by itself (``transport(_:)``): the play or
    /// pause that comes back through the route is not sent to the renderer again.
    var followingRenderer = false
    /// Runs once the session is closed (``close(sendStop:done:)``).
    var onClosed: (() -> Void)?
    /// ``CastEvent/castStarted(_:)`` was published (once per session, not per item).
    var announced = false

    init(renderer: Renderer, control: RendererControl, feature: CastFeature) {
        self.renderer = renderer
        self.control = control
        self.feature = feature
    }

    var context: FeatureContext? { feature.context }

    // MARK: Items

    /// Gives the renderer the player's current item (`SetAVTransportURI` with DIDL-Lite: title,
    /// duration, protocolInfo), then `Play` unless `andPlay` is false; `start` is sought once it plays.
    func loadCurrent(start: MediaTime?, andPlay: Bool) {
        guard let context, let uri = context.media.uri, !closed else { return }
        currentURI = uri
        commandSentAt = FeatureContext.now()
        playedItem = false
        endReported = false
        expectingStop = true
        startAt = (start?.seconds ?? 0) >= 1 ? start : nil
        let media: (url: String, mime: String)
        switch serve(uri) {
        case .media(let url, let mime): media = (url, mime)
        case .refused(let message): return feature.fail(self, message)
        }
        servedURL = media.url
        let metadata = CastMetadata(title: title(for: uri), duration: context.media.duration?.seconds, mimeType: media.mime,
                                    protocolInfo: protocolInfo(for: media.mime))
        context.trace("cast \(media.url) (\(media.mime)) to \(renderer.friendlyName)")
        control.setURI(media.url, metadata: metadata) { [weak self] result in
            self?.feature.later { self?.uriSet(result, for: uri, andPlay: andPlay) }
        }
        startPolling()
    }

    private func uriSet(_ result: Result<Void, CastError>, for uri: String, andPlay: Bool) {
        guard !closed, uri == currentURI else { return }
        switch result {
        case .failure(let error): feature.fail(self, error, doing: "SetAVTransportURI")
        case .success:
            guard andPlay else { return feature.started(self) }
            control.play { [weak self] result in
                self?.feature.later {
                    guard let self, !self.closed else { return }
                    switch result {
                    case .success: self.feature.started(self)
                    case .failure(let error): self.feature.fail(self, error, doing: "Play")
                    }
                }
            }
        }
    }

    /// The URL and MIME type the renderer gets for `uri`: a local file served on the address
    /// that reaches the renderer (``Renderer/hostAddress``); http(s) as it is.
    private enum Served { case media(url: String, mime: String), refused(String) }

    private func serve(_ uri: String) -> Served {
        server?.close()
        server = nil
        if URIScheme.isHTTP(uri) {
            return .media(url: uri, mime: MediaType.guess(forName: URL(string: uri)?.lastPathComponent ?? uri))
        }
        guard let path = MediaType.localPath(of: uri) else { return .refused("cannot cast \(uri): only files and http(s) URIs can be cast") }
        do {
            let server = try HTTPServer(address: renderer.hostAddress, port: 0, token: AccessToken.random())
            let mime = MediaType.guess(forName: path)
            let served = server.serveFile(path, contentType: mime)
            self.server = server
            return .media(url: server.baseURL + served, mime: mime)
        } catch {
            return .refused("cannot serve \(path) to \(renderer.friendlyName): \(error)")
        }
    }

    /// The item's title: its title tag when the player knows one, else the file name.
    private func title(for uri: String) -> String {
        let tagged = feature.currentTitle
        if let tagged, !tagged.isEmpty { return tagged }
        return MediaLocation.displayName(ofURI: uri)
    }

    /// The renderer's own protocolInfo for `mime` (its GetProtocolInfo sink list), nil when it lists none.
    private func protocolInfo(for mime: String) -> String? {
        renderer.protocols.first { $0.hasPrefix("http-get:") && $0.split(separator: ":").dropFirst(2).first.map(String.init) == mime }
    }

    /// One line for a failed call.
    func describe(_ error: CastError, doing action: String) -> String {
        switch error {
        case .renderer(let code, _) where code == 714 || code == 716:
            return "\(renderer.friendlyName) refused the media (\(action): \(error))"
        default:
            return "\(renderer.friendlyName): \(action): \(error)"
        }
    }

    // MARK: PlaybackRoute (engine → renderer)

    func routePlay() {
        if followingRenderer { return followingRenderer = false }    // the renderer plays already
        commandSentAt = FeatureContext.now()
        if endReported, let context, context.media.uri == currentURI {     // play again after the end
            return loadCurrent(start: nil, andPlay: true)
        }
        control.play { [weak self] in self?.report($0, doing: "Play") }
    }

    func routePause() {
        if followingRenderer { return followingRenderer = false }    // the renderer paused itself
        commandSentAt = FeatureContext.now()
        control.pause { [weak self] in self?.report($0, doing: "Pause") }
    }

    func routeSeek(to position: MediaTime) {
        control.seek(toSeconds: position.seconds) { [weak self] result in
            self?.feature.later {
                guard let self, !self.closed else { return }
                switch result {
                case .success: self.context?.route.seekDone(at: position)
                case .failure(.renderer(let code, let text)):   // a refused seek is not the end of the cast
                    self.context?.publish(.warning(PlayerError(kind: .other, message: "\(self.renderer.friendlyName): Seek: UPnP error \(code): \(text)")))
                    self.context?.route.seekDone(at: self.context?.route.position ?? position)
                case .failure(let error): self.feature.fail(self, error, doing: "Seek")
                }
            }
        }
    }

    func routeSetVolume(_ volume: Double, muted: Bool) {
        let percent = Int((VolumeScale.cubic(fromLinear: volume) * 100).rounded())
        control.setVolume(min(max(percent, 0), 100)) { [weak self] in self?.report($0, doing: "SetVolume") }
        control.setMute(muted) { [weak self] in self?.report($0, doing: "SetMute") }
    }

    func routeStop() {
        expectingStop = true
        control.stop { [weak self] in self?.report($0, doing: "Stop") }
    }

    /// A command's answer: a renderer gone or silent, or refusing the media (714/716), ends the
    /// cast; another refusal (701 "transition not available", say) is a warning.
    private func report(_ result: Result<Void, CastError>, doing action: String) {
        guard case .failure(let error) = result else { return }
        feature.later { [weak self] in
            guard let self, !self.closed else { return }
            let fatal: Bool
            switch error {
            case .renderer(let code, _): fatal = code == 714 || code == 716
            case .gone, .timeout, .transport: fatal = true
            }
            if fatal {
                self.feature.fail(self, error, doing: action)
            } else {
                self.context?.publish(.warning(PlayerError(kind: .other, message: self.describe(error, doing: action))))
            }
        }
    }

    // MARK: Closing

    /// Stops polling and, with `sendStop`, tells the renderer `Stop`; the file server closes
    /// once that call returned (or at once). `done` runs on the loop thread when all is released.
    func close(sendStop: Bool, done: (() -> Void)? = nil) {
        guard !closed else { return }
        closed = true
        onClosed = done
        poll?.destroy()
        poll = nil
        control.unsubscribeLastChange()
        guard sendStop, !control.isGone else {
            control.cancelAll()
            finishClosing()
            return
        }
        control.stop { [self] _ in        // keeps the session (and its control) until answered
            self.feature.later { self.finishClosing() }
        }
    }

    /// Player teardown while a `Stop` is still out: cancel it and finish now.
    func abandon() {
        control.cancelAll()
        finishClosing()
    }

    private func finishClosing() {
        server?.close()
        server = nil
        let done = onClosed
        onClosed = nil
        done?()
    }
}
