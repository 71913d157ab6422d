import BackendCore

/// Casting on ``Player``: the renderers found on the LAN, casting the current media to
/// one of them, and back. Every command is queued on the loop thread like the player's own; the
/// getters read the cast feature's snapshot section (``CastSnapshot``, one lock, any thread).
/// What happens is told by ``CastEvent``s (`event.castEvent`), published on the loop thread.
/// While casting, ``Player/play()``, ``Player/pause()``, seeks, volume, mute and the queue's
/// next/previous drive the renderer, and position, state and seek-done events come from it.
/// A player without a ``CastFeature`` has no renderers and casts nothing.
extension Player {
    private var castSnapshot: CastSnapshot { snapshot.features[CastSnapshot.self] ?? CastSnapshot() }

    /// The renderers discovery found so far (empty before ``discoverRenderers()`` or a cast). Any thread.
    public var renderers: [Renderer] { castSnapshot.renderers }

    /// The renderer the media plays on now, nil when it plays locally. Any thread.
    public var castingRenderer: Renderer? { castSnapshot.casting }

    /// Starts looking for renderers (SSDP; on the interfaces of ``CastSettings/interfaces``):
    /// ``CastEvent/renderersChanged(_:)`` as they appear and leave. Nothing is sent on the
    /// network before this or ``cast(to:)``. Any thread; runs on the loop thread.
    public func discoverRenderers() {
        withFeature(CastFeature.self) { feature, _ in feature.discover() }
    }

    /// Casts the current media to `target` (discovering first when needed, up to
    /// ``CastSettings/findTimeout``): local playback stops, the renderer plays from the current
    /// position, ``CastEvent/castStarted(_:)``; or ``CastEvent/castFailed(renderer:message:)``
    /// and local playback goes on. With nothing loaded, the next media loaded is cast. Casting
    /// to another renderer while casting moves the media there. Any thread; runs on the loop thread.
    public func cast(to target: CastTarget) {
        withFeature(CastFeature.self) { feature, _ in feature.cast(to: target) }
    }

    /// Stops casting: the renderer is told `Stop`, local playback resumes at its position,
    /// ``CastEvent/castEnded(_:position:)``. Nothing happens when not casting. Any thread.
    public func stopCasting() {
        withFeature(CastFeature.self) { feature, _ in feature.stopCasting() }
    }

    /// ``stopCasting()``, returning once the renderer answered its `Stop` (at most the call
    /// timeout, ``CastSettings/callTimeout``), at once when not casting: a program about to quit
    /// calls it so the TV does not play on. Any thread; suspends, never blocks.
    public func stopCastingAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = PendingReply<Void> { _ in continuation.resume() }
            let queued = withFeature(CastFeature.self) { feature, _ in feature.stopCasting { once.resolve(.success(())) } }
            if !queued { once.resolve(.success(())) }
        }
    }
}
