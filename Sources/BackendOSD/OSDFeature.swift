import BackendCore
import CGStreamer
import GLibSupport

/// An on-screen display, as mpv's: the state, position/duration and a bar on a seek,
/// the volume, the rate, and messages that other features' events turn into (track or chapter
/// changes: `init(settings:describe:)`), shown for ``OSDSettings/duration`` then hidden — while
/// paused, `Paused` and the bar stay instead, and every change is drawn at once on the paused
/// picture (`FeatureVideo/redrawPausedFrame()`).
/// Drawn by a `textoverlay` added as a video overlay (`OSDOverlay`, `FeatureContext.video.addOverlay`:
/// snapshots leave it out unless asked), only when the video sink
/// draws into a window (`FeatureContext.video.sinkDrawsIntoWindow`): headless players get none.
/// With ``OSDSettings/seekPreview`` and a picture source, a seek that jumps, or the pointer over
/// the bottom strip of the picture (``pointerMoved(x:y:)``), also shows a bar along the bottom
/// and a picture of the target time above it (`SeekPreview`, an `overlaycomposition`).
///
/// **Thread:** every method runs on the loop thread; the public API (`Player.showOSD(message:progress:)`)
/// queues its work there. Not `Sendable`: `Player` holds it through a `LoopConfined` handle.
public final class OSDFeature: PlayerFeature {
    /// Turns an event (a feature's) into an OSD message, with the snapshot as it stands.
    public typealias Describe = @Sendable (PlayerEvent, PlayerSnapshot) -> String?

    let settings: OSDSettings
    private let describe: Describe
    private var context: FeatureContext?
    private var overlay: OSDOverlay?
    private var hideTimer: TimerSource?
    /// What is shown: a message and whether the progress lines are (loop thread).
    private var message: String?
    private var showsProgress = false
    private var position: MediaTime = .zero
    private var duration: MediaTime?
    /// Makes the seek preview's picture sources (nil: no preview).
    private let previewSource: PreviewPictureSourceMaker?
    /// The seek preview, when shown at all.
    private(set) var preview: SeekPreview?

    /// An OSD drawn with `settings`; `describe` turns events into messages (nil: none);
    /// `previewSource` makes the seek preview's pictures of a media (nil: no seek preview).
    public init(settings: OSDSettings = OSDSettings(), describe: @escaping Describe = { _, _ in nil },
                previewSource: PreviewPictureSourceMaker? = nil) {
        self.settings = settings
        self.describe = describe
        self.previewSource = previewSource
    }

    /// Adds the `textoverlay` to the video filter chain when the video sink draws into a window.
    public func attach(to context: FeatureContext) {
        self.context = context
        guard settings.enabled, context.video.sinkDrawsIntoWindow else { return }
        if settings.seekPreview, let previewSource, let preview = SeekPreview(makeSource: previewSource, fillColour: settings.colour),
           let element = preview.element {
            context.video.addOverlay(element, order: .seekPreview)
            self.preview = preview
        }
        let overlay = OSDOverlay(settings: settings)
        guard let element = overlay.element else { return }
        context.video.addOverlay(element, order: .onScreenDisplay) // after the filters; snapshots leave it out unless asked
        self.overlay = overlay
    }

    /// Removes the hide timer and drops the element's reference.
    public func teardown() {
        hideTimer?.destroy()
        hideTimer = nil
        overlay?.release()
        overlay = nil
        preview?.release()
        preview = nil
    }

    /// A new load hides the OSD and forgets the old position.
    public func resetForNewMedia(uri: String?) {
        position = .zero
        duration = nil
        hide()
        let osd = context?.confine(self)
        preview?.mediaChanged(to: uri) { osd?.runOnLoop { $0?.previewPictureArrived() } }
    }

    /// A seek is sent: the bar with the target shows before the frame at the target is drawn;
    /// a jump of `previewJump` or more in media that already plays or pauses (not a load's
    /// start position) also shows the seek preview.
    public func seekIssued(to position: MediaTime) {
        let from = self.position
        self.position = position
        show(message: message, progress: true)
        let started: Set<PlayerState> = [.playing, .paused, .seeking, .buffering]
        if abs((position - from).nanoseconds) >= Self.previewJump.nanoseconds, let state = context?.media.state, started.contains(state) {
            showPreview(at: position)
        }
    }

    /// The shortest seek that shows the preview: frame steps, track switches and rate changes
    /// (seeks to where playback already is) show none.
    static let previewJump = MediaTime(nanoseconds: 1_000_000_000)

    /// The pointer moved over the video window, at (`x`, `y`) in the video's pixels (as the
    /// sink reports navigation events): over the bottom strip of the picture it shows the preview
    /// of the time it points at (the bar's place) with that time; elsewhere a preview it showed
    /// goes. Does nothing without a preview or a duration. Loop thread.
    public func pointerMoved(x: Double, y: Double) {
        guard let preview, overlay != nil, let total = duration ?? context?.media.duration, total > .zero else { return }
        guard let fraction = preview.fraction(pointerX: x, y: y) else {
            if hovering {
                hovering = false
                if preview.hide() { redrawIfPaused() }
            }
            return
        }
        let time = MediaTime(nanoseconds: Int64((Double(total.nanoseconds) * fraction).rounded()))
        hovering = true
        show(message: OSDText.preview(time), progress: true)
        showPreview(at: time)
    }

    /// The preview shows because of the pointer (it goes when the pointer leaves the strip).
    private var hovering = false

    private func showPreview(at time: MediaTime) {
        guard let preview, let total = duration ?? context?.media.duration else { return }
        context?.video.setOverlaysDrawing(true)
        if preview.show(time, of: total) { redrawIfPaused() }
    }

    /// A new picture of the media: drawn at once if it is nearer to the time shown.
    private func previewPictureArrived() {
        if preview?.pictureArrived(duration: duration ?? context?.media.duration) == true { redrawIfPaused() }
    }

    /// State (paused/playing), seek landings, volume, rate, positions while shown, and messages
    /// from `init(settings:describe:)` for other events.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .position(let now, let total):
            position = now
            duration = total
            if showsProgress { refresh() }
        case .durationChanged(let total): duration = total
        case .stateChanged(from: .playing, to: .paused): show(message: Self.pausedNote, progress: true)
        case .stateChanged(from: .paused, to: .playing): show(message: "Playing", progress: false)
        case .seekDone(let landed):
            position = landed
            if showsProgress { refresh() }
        case .volumeChanged(let volume, let muted): show(message: OSDText.volume(volume, muted: muted), progress: false)
        case .rateChanged(let rate): show(message: OSDText.rate(rate), progress: false)
        case .abLoopChanged(let loop): show(message: OSDText.abLoop(loop), progress: false)
        case .feature:
            if let context, let text = describe(event, context.snapshot) { show(message: text, progress: false) }
        default: break
        }
    }

    /// What the OSD says while paused, with the progress lines, once no other message shows.
    static let pausedNote = "Paused"

    /// Shows `message` and/or the progress lines for ``OSDSettings/duration`` (from the last call);
    /// then the OSD hides, or while paused goes back to ``pausedNote`` (``settle()``).
    func show(message: String?, progress: Bool) {
        guard overlay != nil, let context else { return }
        self.message = message
        showsProgress = progress
        refresh()
        hideTimer?.destroy()
        hideTimer = context.loop.addTimer(every: settings.duration) { [unowned self] in
            self.hideTimer = nil
            self.settle()
            return false
        }
    }

    /// After a message's time: while paused the pause note stays on the paused picture (as the
    /// player's state, until playing on), else the OSD hides.
    private func settle() {
        guard context?.media.state == .paused else { return hide() }
        hidePreview()
        message = Self.pausedNote
        showsProgress = true
        refresh()
    }

    /// The text now shown (empty when hidden), for tests.
    var shownText: String { overlay?.text ?? "" }

    /// Sets the text; while paused a changed text has the paused picture drawn again
    /// (``FeatureVideo/redrawPausedFrame()``), or it would wait for the next frame.
    private func refresh() {
        let progress = showsProgress ? OSDText.progress(position: position, duration: duration ?? context?.media.duration) : nil
        context?.video.setOverlaysDrawing(true)   // first: every frame drawn on is kept
        if overlay?.show(OSDText.markup(message: message, progress: progress)) == true { redrawIfPaused() }
    }

    /// A new text while the player rests paused: the picture is drawn again so it shows (a seek
    /// draws its own frame; playing on draws every frame).
    private func redrawIfPaused() {
        if context?.media.state == .paused { context?.video.redrawPausedFrame() }
    }

    private func hidePreview() {
        hovering = false
        if preview?.hide() == true { redrawIfPaused() }
    }

    private func hide() {
        hidePreview()
        hideTimer?.destroy()
        hideTimer = nil
        message = nil
        showsProgress = false
        if overlay?.show("") == true { redrawIfPaused() }
        context?.video.setOverlaysDrawing(false)
    }
}

public extension ExtensionOrder {
    /// The on-screen display's rank among the video overlays (the only one of the standard features).
    static let onScreenDisplay = ExtensionOrder(100)
    /// The seek preview's rank: before the on-screen display's text, which is drawn over it.
    static let seekPreview = ExtensionOrder(90)
}
