import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

/// Tells when GUPnP sends a GENA `SUBSCRIBE` for one service's events — the first one and those
/// of its own resubscriptions after a missed SEQ — by watching its context's `SoupSession`
/// (`request-queued`, the message's method and path). Each new subscription owes an initial
/// event with the whole state, which GUPnP 1.6 drops when it beats the SUBSCRIBE's answer
/// (RendererControl+Confirm.swift). The handler is disconnected at ``cancel()`` or release.
/// **Thread:** the loop thread (GUPnP queues its messages there; `onSubscribe` runs there).
final class SubscribeWatch {
    private let session: UnsafeMutablePointer<SoupSession>
    private var handler: gulong = 0

    /// Nil when the service has no context, session or event URL.
    init?(service: UnsafeMutablePointer<GUPnPServiceProxy>, onSubscribe: @escaping () -> Void) {
        let info = GLibValues.cast(service, to: GUPnPServiceInfo.self)
        guard let context = gupnp_service_info_get_context(info), let session = gupnp_context_get_session(context),
              let url = gupnp_service_info_get_event_subscription_url(info) else { return nil }
        defer { g_free(url) }
        guard let uri = g_uri_parse(url, G_URI_FLAGS_NONE, nil) else { return nil }
        let path = String(cString: g_uri_get_path(uri))
        g_uri_unref(uri)
        self.session = session
        g_object_ref(session)
        let box = CallbackBox(Watched(path: path, onSubscribe: onSubscribe))
        handler = CGStreamer_signal_connect_2(session, "request-queued", { _, message, data in
            guard let message, let data else { return }
            let watched = CallbackBox<Watched>.from(data).value
            let msg = OpaquePointer(message)   // SoupMessage is opaque to Swift
            guard let method = soup_message_get_method(msg), String(cString: method) == "SUBSCRIBE",
                  let uri = soup_message_get_uri(msg), String(cString: g_uri_get_path(uri)) == watched.path else { return }
            watched.onSubscribe()
        }, box.retainedPointer, callbackBoxClosureRelease)
    }

    /// Disconnects the handler. Idempotent.
    func cancel() {
        guard handler != 0 else { return }
        g_signal_handler_disconnect(session, handler)
        handler = 0
    }

    deinit {
        cancel()
        g_object_unref(session)
    }

    /// What the handler's box holds.
    private struct Watched {
        let path: String
        let onSubscribe: () -> Void
    }
}
