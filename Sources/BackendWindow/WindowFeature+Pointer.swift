import BackendCore

/// The mouse over the video window: clicks and the wheel are published as
/// ``WindowEvent/clicked(button:count:)`` and ``WindowEvent/scrolled(deltaX:deltaY:)`` (the
/// frontend decides what they do), and the pointer hides after ``pointerIdle`` without motion
/// while video plays, and shows again on motion (`XDefineCursor` on the sink's own window);
/// motion is also passed to the `pointerMoved` hook (the OSD's seek preview).
/// Loop thread only.
extension WindowFeature {
    /// How long the pointer stays visible over playing video without moving.
    static let pointerIdle: Duration = .seconds(1)

    /// One pointer input from the sink.
    func handle(_ input: PointerInput) {
        switch input {
        case .press(let button):
            for click in clicks.press(button: button, at: FeatureContext.now()) {
                context?.publish(WindowEvent.clicked(button: click.button, count: click.count))
            }
            armClickTimer()
            showPointer()
        case .scroll(let deltaX, let deltaY):
            context?.publish(WindowEvent.scrolled(deltaX: deltaX, deltaY: deltaY))
        case .motion(let x, let y):
            showPointer()
            pointerMoved?(x, y)
        }
        if state == .playing && window.showsVideo { armPointerTimer() }
    }

    /// Reports the pending single click once the double-click interval has passed (one-shot timer).
    private func armClickTimer() {
        clickTimer?.destroy()
        clickTimer = nil
        guard clicks.pending != nil, let context else { return }
        clickTimer = context.loop.addTimer(every: .nanoseconds(Int64(ClickCounter.interval))) { [weak self] in
            guard let self else { return false }
            if let click = clicks.expire(at: FeatureContext.now() + 1_000_000) {   // 1 ms early timer slack
                context.publish(WindowEvent.clicked(button: click.button, count: click.count))
            }
            clickTimer = nil
            return false
        }
    }

    /// (Re)starts the idle timer: after ``pointerIdle`` without motion over playing video, the
    /// pointer hides.
    func armPointerTimer() {
        pointerTimer?.destroy()
        pointerTimer = context?.loop.addTimer(every: Self.pointerIdle) { [weak self] in
            guard let self else { return false }
            pointerTimer = nil
            if state == .playing, window.showsVideo, let own = window.ownWindow {
                window.x11.hideCursor(on: own)
                window.pointerHidden = true
            }
            return false
        }
    }

    /// Shows the pointer again (motion, a click, pause, the end) and stops the idle timer.
    func showPointer() {
        pointerTimer?.destroy()
        pointerTimer = nil
        guard window.pointerHidden else { return }
        window.pointerHidden = false
        if let own = window.ownWindow { window.x11.showCursor(on: own) }
    }
}
