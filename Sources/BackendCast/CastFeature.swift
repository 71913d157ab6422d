import BackendCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
import GLibSupport
#endif

/// Casting to UPnP AV / DLNA MediaRenderers as a ``PlayerFeature``: discovery
/// (``RendererDiscovery``) started only when asked for, and one `CastSession` at a time that
/// takes over playback through the core's route (``FeatureRoute/begin(_:)``).
///
/// Nothing is sent on the network until `discover()` or `cast(to:)`: no SSDP, no HTTP
/// server. **Thread:** every method on the player's loop thread (the public API is
/// `Player+Cast.swift`); GUPnP's callbacks arrive there too, outside the player's handlers, so
/// they reach the player through ``FeatureContext/runOnLoop(_:)`` (`later(_:)`).
public final class CastFeature: PlayerFeature {
    /// The options given at init.
    public let settings: CastSettings
    var context: FeatureContext?
    var discovery: RendererDiscovery?
    /// The cast in place, nil while the media plays locally.
    var session: CastSession?
    /// Sessions ended but still sending their last `Stop` (their control must outlive the call).
    var closing: [CastSession] = []
    /// A renderer found while nothing was loaded: cast to it once media is.
    var deferred: Renderer?
    /// A cast asked for before its renderer was found, and the timer that gives up on it.
    var waiting: (target: CastTarget, timer: TimerSource)?
    var section = CastSnapshot()

    /// Reads the media's title from its info (a tag), for the DIDL-Lite metadata.
    let mediaTitle: @Sendable (MediaInfo) -> String?
    /// The current media's title, once its info was published.
    var currentTitle: String?

    /// A feature with `settings`; `mediaTitle` reads a media's title (the file name is used without one).
    public init(settings: CastSettings = CastSettings(), mediaTitle: @escaping @Sendable (MediaInfo) -> String? = { _ in nil }) {
        self.settings = settings
        self.mediaTitle = mediaTitle
    }

    /// Keeps the context and writes the empty snapshot section.
    public func attach(to context: FeatureContext) {
        self.context = context
        context.updateSnapshot(section)
    }

    /// Releases the session (its calls cancelled: the renderer is left as it is — call
    /// `Player.stopCastingAndWait()` before shutting down to stop it), discovery and timers.
    public func teardown() {
        waiting?.timer.destroy()
        waiting = nil
        session?.close(sendStop: false)
        session = nil
        for old in closing { old.abandon() }
        closing = []
        discovery?.onChange = nil
        discovery?.stop()
        discovery = nil
    }

    // MARK: Discovery

    /// Starts discovery (SSDP on the interfaces of ``CastSettings/interfaces``) unless it runs.
    func discover() {
        guard discovery == nil else { return }
        let discovery = RendererDiscovery(protocolInfoTimeout: settings.callTimeout)
        discovery.onChange = { [unowned self] renderers in
            self.later { self.renderersChanged(renderers) }
        }
        self.discovery = discovery
        discovery.start(interfaces: settings.interfaces)
        section.discovering = true
        context?.updateSnapshot(section)
    }

    private func renderersChanged(_ renderers: [Renderer]) {
        section.renderers = renderers
        context?.updateSnapshot(section)
        context?.publish(CastEvent.renderersChanged(renderers))
        if let session, !renderers.contains(where: { $0.udn == session.renderer.udn }) {
            fail(session, "\(session.renderer.friendlyName): the renderer is gone")
        }
        if let waiting, let renderer = waiting.target.match(in: renderers) {
            waiting.timer.destroy()
            self.waiting = nil
            begin(renderer)
        }
    }

    // MARK: Casting

    /// Casts the current media to the renderer `target` names, now or once discovery finds it
    /// (failing after ``CastSettings/findTimeout``). Casting to the renderer already cast to does nothing.
    func cast(to target: CastTarget) {
        discover()
        if let session, target.match(in: [session.renderer]) != nil, target != .auto { return }
        waiting?.timer.destroy()
        waiting = nil
        if let renderer = target.match(in: discovery?.renderers ?? []) { return begin(renderer) }
        guard let context else { return }
        let timer = context.loop.addTimer(every: settings.findTimeout) { [unowned self] in
            guard let waiting = self.waiting else { return false }
            self.waiting = nil
            let found = self.section.renderers.map(\.friendlyName)
            let what = waiting.target == .auto ? "no renderer found" : "no renderer '\(waiting.target.text)' found"
            self.publishFailure(nil, "\(what) within \(self.settings.findTimeout.components.seconds) s"
                                + (found.isEmpty ? "" : " (found: \(found.joined(separator: ", ")))"))
            return false
        }
        waiting = (target, timer)
    }

    /// Ends the cast: the renderer is told `Stop`, local playback resumes at its position.
    /// `done` runs once the renderer answered (or the call failed), at once when not casting.
    func stopCasting(done: (() -> Void)? = nil) {
        waiting?.timer.destroy()
        waiting = nil
        deferred = nil
        guard let session else { done?(); return }
        let position = context?.route.position
        end(session, done: done)
        context?.route.end(resumeAt: position)
        context?.publish(CastEvent.castEnded(session.renderer, position: position))
    }

    private func begin(_ renderer: Renderer) {
        guard let context else { return }
        guard context.media.uri != nil, context.progress.isActive else {
            deferred = renderer              // nothing loaded (yet): the next media is cast
            return
        }
        deferred = nil
        guard let control = discovery?.makeControl(for: renderer, timeout: settings.callTimeout) else {
            return publishFailure(renderer, "\(renderer.friendlyName): the renderer has no AVTransport service")
        }
        let start = context.route.position ?? context.media.queryPosition() ?? context.snapshot.position
        if let old = session { end(old) }     // another renderer: the route is replaced, not ended
        let session = CastSession(renderer: renderer, control: control, feature: self)
        self.session = session
        section.casting = renderer
        context.updateSnapshot(section)
        context.route.begin(session)
        session.loadCurrent(start: start, andPlay: context.transport.intent != .pause)
    }

    /// The session accepted the media and was told to play: announced once per session.
    func started(_ session: CastSession) {
        guard session === self.session, !session.announced else { return }
        session.announced = true
        context?.publish(CastEvent.castStarted(session.renderer))
    }

    /// Ends `session` for a reason: one `castFailed` event, local playback back at the last position.
    func fail(_ session: CastSession, _ message: String) {
        guard session === self.session else { return }
        let position = context?.route.position
        end(session)
        context?.route.end(resumeAt: position)
        publishFailure(session.renderer, message)
    }

    /// Ends `session` because a call failed with `error` (``fail(_:_:)``); a renderer that no
    /// longer answers (``CastError/isUnreachable``: refused, reset or silent past the call's
    /// deadline) also leaves the list at once (``RendererDiscovery/drop(_:)``): killed without
    /// `ssdp:byebye`, its announcement would keep it listed for up to 30 minutes.
    func fail(_ session: CastSession, _ error: CastError, doing action: String) {
        guard session === self.session else { return }
        fail(session, session.describe(error, doing: action))
        if error.isUnreachable { discovery?.drop(session.renderer.udn) }
    }

    private func publishFailure(_ renderer: Renderer?, _ message: String) {
        context?.trace("cast failed: \(message)")
        context?.publish(CastEvent.castFailed(renderer: renderer, message: message))
    }

    private func end(_ session: CastSession, done: (() -> Void)? = nil) {
        self.session = nil
        section.casting = nil
        context?.updateSnapshot(section)
        closing.append(session)
        session.close(sendStop: true) { [weak self] in
            self?.closing.removeAll { $0 === session }
            done?()
        }
    }

    // MARK: The player's calls

    /// Forgets the old media's title.
    public func resetForNewMedia(uri: String?) { currentTitle = nil }

    /// Keeps the media's title; a new item while casting is cast once its info is published
    /// (prerolled: duration and tags known), from a handler of its own.
    public func observe(_ event: PlayerEvent) {
        guard case .mediaInfo(let info) = event else { return }
        currentTitle = mediaTitle(info)
        if let renderer = deferred {
            deferred = nil
            return later { [weak self] in self?.begin(renderer) }
        }
        guard let session, session.currentURI != info.uri else { return }
        later { [weak self] in
            guard let self, let context = self.context, session === self.session, session.currentURI != context.media.uri else { return }
            session.loadCurrent(start: nil, andPlay: context.transport.intent != .pause)
        }
    }

    /// Runs `work` on the loop thread as a handler of its own (events it publishes are delivered
    /// when it returns): the way GUPnP's callbacks reach the player.
    func later(_ work: @escaping () -> Void) {
        context?.runOnLoop(work)
    }
}
