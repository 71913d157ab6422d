import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

extension RendererDiscovery {
    /// Connects `handler` to a GUPnP signal whose handler takes (instance, object, user_data)
    /// (`g_signal_connect_data`): the box holds the discovery weakly and is released when the
    /// handler is disconnected (``stop()``). Returns the handler id.
    func connect<Instance>(_ instance: UnsafeMutablePointer<Instance>, _ signal: String,
                           _ handler: @escaping (RendererDiscovery, UnsafeMutableRawPointer) -> Void) -> gulong {
        let box = CallbackBox(SignalTarget(discovery: self, handler: handler))
        return CGStreamer_signal_connect_2(instance, signal, { _, argument, data in
            let target = CallbackBox<SignalTarget>.from(data!).value
            guard let discovery = target.discovery, let argument else { return }
            target.handler(discovery, argument)
        }, box.retainedPointer, callbackBoxClosureRelease)
    }

    /// What a signal's box carries.
    struct SignalTarget {
        weak var discovery: RendererDiscovery?
        let handler: (RendererDiscovery, UnsafeMutableRawPointer) -> Void
    }
}
