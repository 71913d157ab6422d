import BackendCore
import CGStreamer
import Glibc

/// Keeps the desktop's screensaver off while video plays (issue 22, item 6): `Inhibit` on the
/// session bus's `org.freedesktop.ScreenSaver` (GDBus, `g_dbus_connection_call`), `UnInhibit`
/// with its cookie when playback pauses, ends or stops, and at shutdown. Without a session bus,
/// or when no service answers there, the X server's own screen saver is suspended instead
/// (`XScreenSaverSuspend`, libXss) and resumed the same way.
///
/// **Thread:** the loop thread only. `Inhibit` waits for its cookie (500 ms at most; a service
/// that does not answer in time is given up for the X fallback), `UnInhibit` does not wait. No
/// D-Bus autolaunch: the bus is used only when `DBUS_SESSION_BUS_ADDRESS` is set or the user's
/// runtime directory has its `bus` socket.
final class ScreenSaverInhibitor {
    /// The service, object and interface of the freedesktop.org idle-inhibition API.
    static let service = "org.freedesktop.ScreenSaver"
    /// See ``service``.
    static let path = "/org/freedesktop/ScreenSaver"
    /// The application name and reason given to `Inhibit`.
    static let application = "gstplay"
    /// See ``application``.
    static let reason = "Playing video"

    private let x11: X11Connection
    /// The session bus (`g_bus_get_sync`, a reference of ours), nil before the first use or without one.
    private var bus: OpaquePointer?
    private var busTried = false
    /// The bus cannot do it: use `XScreenSaverSuspend`.
    private var useX11 = false
    private var x11Suspended = false
    /// What the player wants: held while video plays.
    private(set) var wanted = false
    /// The cookie of the `Inhibit` in force.
    private(set) var cookie: UInt32?

    /// An inhibitor that falls back to `x11`'s display.
    init(x11: X11Connection) { self.x11 = x11 }

    /// Holds (true) or lets go of (false) the screensaver; does nothing when already so.
    func setInhibited(_ on: Bool) {
        guard on != wanted else { return }
        wanted = on
        apply()
    }

    /// Lets go (a blocking `UnInhibit`, 500 ms at most, so it is sent before the process may end;
    /// one already queued is flushed out, `g_dbus_connection_flush_sync`) and drops the bus
    /// reference. Idempotent.
    func teardown() {
        wanted = false
        if let bus, let cookie {
            self.cookie = nil
            let reply = g_dbus_connection_call_sync(bus, Self.service, Self.path, Self.service, "UnInhibit",
                                                    g_variant_new_tuple([g_variant_new_uint32(cookie)], 1), nil,
                                                    G_DBUS_CALL_FLAGS_NO_AUTO_START, 500, nil, nil)
            if let reply { g_variant_unref(reply) }
        }
        if x11Suspended { x11.suspendScreenSaver(false); x11Suspended = false }
        if let bus {
            g_dbus_connection_flush_sync(bus, nil, nil)   // an UnInhibit sent just before leaves now
            g_object_unref(UnsafeMutableRawPointer(bus))
        }
        bus = nil
    }

    private func apply() {
        if useX11 {
            guard wanted != x11Suspended else { return }
            if wanted { x11Suspended = x11.suspendScreenSaver(true) } else { x11.suspendScreenSaver(false); x11Suspended = false }
            return
        }
        if wanted {
            guard cookie == nil else { return }
            guard let bus = sessionBus() else { useX11 = true; return apply() }
            // Synchronous (500 ms at most, once per start of playback: a local round trip), so
            // that no Inhibit is ever in flight when playback stops or the player shuts down.
            let arguments = [g_variant_new_string(Self.application), g_variant_new_string(Self.reason)]
            let reply = g_dbus_connection_call_sync(bus, Self.service, Self.path, Self.service, "Inhibit",
                                                    g_variant_new_tuple(arguments, 2), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 500, nil, nil)
            if let reply, let value = g_variant_get_child_value(reply, 0) {
                cookie = g_variant_get_uint32(value)
                g_variant_unref(value)
            } else {
                useX11 = true   // no such service on the bus, or it did not answer in time
                apply()
            }
            if let reply { g_variant_unref(reply) }
        } else if let bus, let cookie {
            self.cookie = nil
            call(bus, "UnInhibit", [g_variant_new_uint32(cookie)])
        }
    }

    /// Calls `method` with `arguments` (floating `GVariant`s, taken) without waiting for the
    /// reply (`g_dbus_connection_call` with no callback; ``teardown()`` flushes what is queued).
    private func call(_ bus: OpaquePointer, _ method: String, _ arguments: [OpaquePointer?]) {
        g_dbus_connection_call(bus, Self.service, Self.path, Self.service, method, g_variant_new_tuple(arguments, gsize(arguments.count)), nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, nil, nil)
    }

    /// The session bus, connected on first use (`g_bus_get_sync`), never autolaunched; it does
    /// not end the process when the bus goes away (`g_dbus_connection_set_exit_on_close`).
    private func sessionBus() -> OpaquePointer? {
        guard !busTried else { return bus }
        busTried = true
        let address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } ?? ""
        let socket = String(cString: g_get_user_runtime_dir()) + "/bus"
        guard !address.isEmpty || access(socket, F_OK) == 0 else { return nil }
        var error: UnsafeMutablePointer<GError>?
        bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        g_clear_error(&error)
        if let bus { g_dbus_connection_set_exit_on_close(bus, 0) }
        return bus
    }
}
