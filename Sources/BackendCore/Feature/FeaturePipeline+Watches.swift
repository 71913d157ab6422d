import CGStreamer
import GLibSupport

/// Watches on `playbin` for features (``FeatureContext/pipeline``): the elements it adds and
/// removes, its streams changing, and the element messages posted on its bus as they are posted.
/// The core connects the handlers and disconnects them at teardown. **Thread:** the calls, loop
/// thread; the callbacks, the thread that adds the element, changes the streams or posts the
/// message (often a streaming thread).
public extension FeaturePipeline {
    /// A callback for an element playbin added, at any depth, with its parent bin.
    typealias ElementAdded = @Sendable (_ element: UnsafeMutablePointer<GstElement>, _ parent: UnsafeMutableRawPointer?) -> Void
    /// A callback for an element playbin removed, at any depth.
    typealias ElementRemoved = @Sendable (_ element: UnsafeMutablePointer<GstElement>) -> Void
    /// A callback for a message posted on playbin's bus.
    typealias MessagePosted = @Sendable (_ message: UnsafeMutablePointer<GstMessage>) -> Void

    /// Calls `added` for every element playbin adds at any depth and `removed` (when given) for
    /// every one it removes (`deep-element-added`, `deep-element-removed`): the elements are borrowed.
    func watchElements(added: @escaping ElementAdded, removed: ElementRemoved? = nil) {
        guard let playbin else { return }
        let instance = UnsafeMutableRawPointer(playbin)
        let addedID = CGStreamer_signal_connect_3(instance, "deep-element-added", { _, parent, element, data in
            guard let element, let data else { return }
            CallbackBox<ElementAdded>.from(data).value(element.assumingMemoryBound(to: GstElement.self), parent)
        }, CallbackBox(added).retainedPointer, callbackBoxClosureRelease)
        context.loop.track(handler: addedID, on: instance)
        guard let removed else { return }
        let removedID = CGStreamer_signal_connect_3(instance, "deep-element-removed", { _, _, element, data in
            guard let element, let data else { return }
            CallbackBox<ElementRemoved>.from(data).value(element.assumingMemoryBound(to: GstElement.self))
        }, CallbackBox(removed).retainedPointer, callbackBoxClosureRelease)
        context.loop.track(handler: removedID, on: instance)
    }

    /// Calls `changed` whenever playbin's streams of any kind change (its `video-changed`,
    /// `audio-changed` and `text-changed` signals): a new media's streams appeared, a subtitle
    /// file was added. **Thread:** `changed` runs on a streaming thread (come back through a
    /// handle: ``FeatureContext/confine(_:)``, ``LoopConfined/runOnLoop(_:)``).
    func watchStreamChanges(_ changed: @escaping @Sendable () -> Void) {
        guard let playbin else { return }
        let instance = UnsafeMutableRawPointer(playbin)
        for signal in ["video-changed", "audio-changed", "text-changed"] {
            let id = CGStreamer_signal_connect_1(instance, signal, { _, data in
                guard let data else { return }
                CallbackBox<@Sendable () -> Void>.from(data).value()
            }, CallbackBox(changed).retainedPointer, callbackBoxClosureRelease)
            context.loop.track(handler: id, on: instance)
        }
    }

    /// Calls `posted` for every element message posted on playbin's bus, synchronously on the
    /// posting thread (`sync-message::element`, sync emission enabled on the bus), before the bus
    /// queues it for the loop thread: for a decision that must be made where the message is
    /// posted (the adaptive feature's variant choice). The message is borrowed.
    func watchElementMessagesSync(_ posted: @escaping MessagePosted) {
        guard let playbin, let bus = gst_element_get_bus(playbin) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        gst_bus_enable_sync_message_emission(bus)
        let id = CGStreamer_signal_connect_2(bus, "sync-message::element", { _, message, data in
            guard let message, let data else { return }
            CallbackBox<MessagePosted>.from(data).value(message.assumingMemoryBound(to: GstMessage.self))
        }, CallbackBox(posted).retainedPointer, callbackBoxClosureRelease)
        context.loop.track(handler: id, on: UnsafeMutableRawPointer(bus))
    }
}
