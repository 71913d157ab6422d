import BackendCore
import CX11

/// The Backend's own Xlib connection, for what the X video sinks cannot do themselves in
/// GStreamer 1.22: set the title of the window they create, make it fullscreen, read its size.
///
/// **Thread:** the loop thread only (one connection, one thread: no `XInitThreads` needed).
/// Opened lazily from `DISPLAY` (`XOpenDisplay`), closed by ``close()``. X errors raised by our
/// own requests (a window the sink destroyed meanwhile) are ignored: Xlib's default handler would
/// exit the process, so each call swaps in a no-op handler around its requests and an `XSync`,
/// as GStreamer's X sinks do around theirs.
final class X11Connection {
    private var display: OpaquePointer?
    private var failed = false
    /// Geometry before ``setFullscreen(_:on:)`` enlarged a window on a server without a window manager.
    private var savedGeometry: [UInt: (x: Int32, y: Int32, width: UInt32, height: UInt32)] = [:]

    /// True after a connection was opened or tried and failed.
    var isOpen: Bool { display != nil }

    /// Set by the I/O error exit handler when the server went away: the connection is unusable.
    /// Xlib calls that handler from the request that met the error, on the thread using this
    /// display: the loop thread, like every other use of it, so a plain property.
    private var lost = false
    /// The invisible cursor (``hideCursor(on:)``), made on first use.
    private var blankCursor: Cursor = 0

    /// Opens the connection on first use; nil when `DISPLAY` names no reachable server. A lost
    /// connection (`XSetIOErrorExitHandler`: the server closed it) is never used again.
    private func connection() -> OpaquePointer? {
        X11Connection.nonFatalErrors
        if display == nil, !failed {
            display = XOpenDisplay(nil)
            failed = display == nil
            if let display {
                XSetIOErrorExitHandler(display, { _, owner in
                    guard let owner else { return }
                    Unmanaged<X11Connection>.fromOpaque(owner).takeUnretainedValue().lost = true
                }, Unmanaged.passUnretained(self).toOpaque())
            }
        }
        return lost ? nil : display
    }

    /// Opens the connection now (when `DISPLAY` is set): one client stays connected to the X
    /// server while the sinks are probed, so a server that resets when its last client leaves
    /// (Xvfb, Xorg without `-noreset`) does not refuse the next sink mid-probe.
    func open() { _ = connection() }

    /// Closes the connection (`XCloseDisplay`; a lost one is only forgotten); idempotent.
    func close() {
        if let display, !lost {
            if blankCursor != 0 { XFreeCursor(display, blankCursor) }
            XCloseDisplay(display)
        }
        display = nil
        blankCursor = 0
        failed = false
        savedGeometry.removeAll()
    }

    /// Makes X errors non-fatal for the whole process, once: Xlib's default handlers print and
    /// `exit(1)`, on whichever thread (a sink's `XShmPutImage` on a window destroyed under it gave
    /// `BadDrawable` and exit 1). Errors are dropped (`XSetErrorHandler`); a broken connection
    /// is not reported by Xlib's handler (`XSetIOErrorHandler`), and ours does not end the
    /// process (`XSetIOErrorExitHandler` on it, ``connection()``). Any thread.
    static let nonFatalErrors: Void = {
        _ = XSetErrorHandler { _, _ in 0 }
        _ = XSetIOErrorHandler { _ in 0 }
    }()

    /// Runs `body` with X errors ignored, then waits for the server (`XSetErrorHandler`, `XSync`).
    private func guarded<T>(_ body: (OpaquePointer) -> T) -> T? {
        guard let display = connection() else { return nil }
        let previous = XSetErrorHandler { _, _ in 0 }
        defer { XSetErrorHandler(previous) }
        let result = body(display)
        XSync(display, 0)
        return result
    }

    private func atom(_ display: OpaquePointer, _ name: String) -> Atom {
        XInternAtom(display, name, 0)
    }

    /// Sets `WM_NAME` and the UTF-8 `_NET_WM_NAME` of `window` (`XStoreName`, `XChangeProperty`).
    func setTitle(_ title: String, of window: UInt) {
        _ = guarded { display in
            _ = XStoreName(display, Window(window), title)
            var bytes = Array(title.utf8)
            _ = XChangeProperty(display, Window(window), atom(display, "_NET_WM_NAME"), atom(display, "UTF8_STRING"),
                                8, PropModeReplace, &bytes, Int32(bytes.count))
        }
    }

    /// The name of the keysym the key that types `name` gives under `modifiers` (an X modifier
    /// mask; only Shift and Lock are applied): "s" with Shift is "S", "period" is "greater" on a
    /// US layout. The keyboard's own mapping decides (`XStringToKeysym`, `XKeysymToKeycode`, then
    /// `XkbLookupKeySym`, which applies the key's type as a client's key press would); nil
    /// without a display or when the name is no keysym of this keyboard.
    func keysymName(_ name: String, modifiers: UInt32) -> String? {
        guarded { display -> String? in
            let keysym = XStringToKeysym(name)
            guard keysym != 0 else { return nil }                     // NoSymbol
            let keycode = XKeysymToKeycode(display, keysym)
            guard keycode != 0 else { return nil }
            var consumed: UInt32 = 0
            var result: KeySym = 0
            let applied = modifiers & UInt32(ShiftMask | LockMask)
            guard XkbLookupKeySym(display, keycode, applied, &consumed, &result) != 0, result != 0,
                  let text = XKeysymToString(result) else { return nil }
            return String(cString: text)
        } ?? nil
    }

    /// The size of `window` (`XGetWindowAttributes`); nil when it is gone.
    func size(of window: UInt) -> (width: Int, height: Int)? {
        guarded { display -> (width: Int, height: Int)? in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, Window(window), &attributes) != 0 else { return nil }
            return (Int(attributes.width), Int(attributes.height))
        } ?? nil
    }

    /// True when a window manager that speaks EWMH runs (`_NET_SUPPORTING_WM_CHECK` on the root).
    private func hasWindowManager(_ display: OpaquePointer) -> Bool {
        let root = CX11_root_window(display, CX11_default_screen(display))
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, root, atom(display, "_NET_SUPPORTING_WM_CHECK"), 0, 1, 0, Atom(XA_WINDOW),
                                        &type, &format, &count, &after, &data)
        if let data { XFree(data) }
        return status == Success && count > 0
    }

    /// Makes `window` fullscreen or restores it. With a window manager: the EWMH
    /// `_NET_WM_STATE_FULLSCREEN` client message to the root window; without one (a bare X server
    /// such as Xvfb): the window is moved and resized to cover the screen and raised, and its
    /// geometry restored afterwards (`XMoveResizeWindow`). Returns false when there is no display.
    @discardableResult
    func setFullscreen(_ fullscreen: Bool, on window: UInt) -> Bool {
        guarded { display -> Bool in
            let screen = CX11_default_screen(display)
            let root = CX11_root_window(display, screen)
            if hasWindowManager(display) {
                var event = XEvent()
                event.xclient.type = ClientMessage
                event.xclient.window = Window(window)
                event.xclient.message_type = atom(display, "_NET_WM_STATE")
                event.xclient.format = 32
                event.xclient.data.l.0 = fullscreen ? 1 : 0 // _NET_WM_STATE_ADD / _REMOVE
                event.xclient.data.l.1 = Int(atom(display, "_NET_WM_STATE_FULLSCREEN"))
                event.xclient.data.l.3 = 1 // source: a normal application
                _ = XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
                return true
            }
            if fullscreen {
                var attributes = XWindowAttributes()
                if savedGeometry[window] == nil, XGetWindowAttributes(display, Window(window), &attributes) != 0 {
                    savedGeometry[window] = (attributes.x, attributes.y, UInt32(attributes.width), UInt32(attributes.height))
                }
                _ = XMoveResizeWindow(display, Window(window), 0, 0,
                                      UInt32(CX11_display_width(display, screen)), UInt32(CX11_display_height(display, screen)))
                _ = XRaiseWindow(display, Window(window))
            } else if let saved = savedGeometry.removeValue(forKey: window) {
                _ = XMoveResizeWindow(display, Window(window), saved.x, saved.y, saved.width, saved.height)
            }
            return true
        } ?? false
    }
}

extension X11Connection {
    /// The connection's socket (`ConnectionNumber`), for a watch on the loop; nil without a display.
    var fileDescriptor: Int32? { connection().map { XConnectionNumber($0) } }

    /// Asks for `window`'s structure events (`XSelectInput` with `StructureNotifyMask`, which
    /// any number of clients may select), so that ``nextDestroyedWindows()`` sees it destroyed.
    func watchStructure(of window: UInt) {
        _ = guarded { display in XSelectInput(display, Window(window), StructureNotifyMask) }
    }

    /// Reads every event waiting (`XPending`, `XNextEvent`) and returns the windows destroyed
    /// (`DestroyNotify`); others are dropped. Never blocks.
    func nextDestroyedWindows() -> [UInt] {
        guard let display = connection() else { return [] }
        var destroyed: [UInt] = []
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == DestroyNotify { destroyed.append(UInt(event.xdestroywindow.window)) }
        }
        return destroyed
    }

    /// Hides the pointer over `window` (`XDefineCursor` with a 1×1 empty pixmap cursor).
    func hideCursor(on window: UInt) {
        _ = guarded { display in
            if blankCursor == 0 {
                var empty: CChar = 0
                let pixmap = XCreateBitmapFromData(display, Window(window), &empty, 1, 1)
                var foreground = XColor(), background = XColor()
                blankCursor = XCreatePixmapCursor(display, pixmap, pixmap, &foreground, &background, 0, 0)
                XFreePixmap(display, pixmap)
            }
            XDefineCursor(display, Window(window), blankCursor)
        }
    }

    /// Shows the pointer over `window` again (`XUndefineCursor`: the parent's cursor).
    func showCursor(on window: UInt) {
        _ = guarded { display in XUndefineCursor(display, Window(window)) }
    }

    /// Suspends (true) or resumes the X server's own screen saver (`XScreenSaverSuspend`, libXss),
    /// the fallback when no session bus answers. Returns false without a display.
    @discardableResult
    func suspendScreenSaver(_ suspend: Bool) -> Bool {
        guarded { display in XScreenSaverSuspend(display, suspend ? 1 : 0) } != nil
    }
}
