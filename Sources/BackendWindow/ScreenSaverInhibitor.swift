import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// Keeps the desktop's screensaver off while video plays: `Inhibit` on the
/// session bus's `org.freedesktop.ScreenSaver` (GDBus through `DBusServiceCall` in GLibSupport), `UnInhibit`
/// with its cookie when playback pauses, ends or stops, and at shutdown. Without a session bus,
/// or when no service answers there, the X server's own screen saver is suspended instead
/// (`XScreenSaverSuspend`, libXss) and resumed the same way.
///
/// **Thread:** the loop thread only. `Inhibit` waits for its cookie (500 ms at most; a service
/// that does not answer in time is given up for the X fallback), `UnInhibit` does not wait. No
/// D-Bus autolaunch: the bus is used only when `DBUS_SESSION_BUS_ADDRESS` is set or the user's
/// runtime directory has its `bus` socket (`DBusObjectExport.sessionBusAddress`).
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
    /// The service's calls (connected on first use, never autolaunched).
    private let screenSaver = DBusServiceCall(service: ScreenSaverInhibitor.service, path: ScreenSaverInhibitor.path,
                                          interface: ScreenSaverInhibitor.service)
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
    /// one already queued is flushed out) and closes the bus connection. Idempotent.
    func teardown() {
        wanted = false
        if let cookie {
            self.cookie = nil
            _ = screenSaver.callAndWait("UnInhibit", [.uint32(cookie)])
        }
        if x11Suspended { x11.suspendScreenSaver(false); x11Suspended = false }
        screenSaver.close()   // an UnInhibit sent just before leaves now
    }

    private func apply() {
        if useX11 {
            guard wanted != x11Suspended else { return }
            if wanted { x11Suspended = x11.suspendScreenSaver(true) } else { x11.suspendScreenSaver(false); x11Suspended = false }
            return
        }
        if wanted {
            guard cookie == nil else { return }
            // Synchronous (500 ms at most, once per start of playback: a local round trip), so
            // that no Inhibit is ever in flight when playback stops or the player shuts down.
            if case .uint32(let given)? = screenSaver.callAndWait("Inhibit", [.string(Self.application), .string(Self.reason)])?.first {
                cookie = given
            } else {
                useX11 = true   // no bus, no such service on it, or it did not answer in time
                apply()
            }
        } else if let cookie {
            self.cookie = nil
            screenSaver.send("UnInhibit", [.uint32(cookie)])
        }
    }
}
