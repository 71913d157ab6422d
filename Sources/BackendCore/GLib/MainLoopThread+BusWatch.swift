import CGStreamer
import GLibSupport

extension MainLoopThread {
    /// Watches `bus` on this context (`gst_bus_create_watch` + `g_source_attach`): `handler`
    /// gets every message on the loop thread. Loop thread only.
    func addBusWatch(_ bus: UnsafeMutablePointer<GstBus>,
                     _ handler: @escaping (UnsafeMutablePointer<GstMessage>) -> Void) -> TimerSource {
        let box = CallbackBox<(MainLoopThread, (UnsafeMutablePointer<GstMessage>) -> Void)>((self, handler))
        let source = CGStreamer_bus_watch_attach(bus, context, { _, message, data in
            guard let message, let data else { return 1 }
            let (thread, handler) = CallbackBox<(MainLoopThread, (UnsafeMutablePointer<GstMessage>) -> Void)>.from(data).value
            handler(message)
            thread.afterDispatch?()
            return 1 // keep the watch
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }
}
