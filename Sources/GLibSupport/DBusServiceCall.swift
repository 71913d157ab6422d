import CGStreamer

/// Calls to another service's object on the session bus (GDBus), with arguments and replies as
/// ``DBusValue``s: the calling half of the Backend's GDBus plumbing, beside the exporting half
/// (``DBusObjectExport``; the window's screensaver inhibition calls
/// `org.freedesktop.ScreenSaver` with it). Connects on first use to the bus
/// ``DBusObjectExport/sessionBusAddress`` names (never autolaunched; the process is not ended
/// when the bus goes away, `g_dbus_connection_set_exit_on_close`).
///
/// **Thread:** one thread (a player's loop thread); ``callAndWait(_:_:timeout:)`` blocks it for
/// the reply (at most `timeout`). ``close()`` flushes what was sent and drops the connection.
package final class DBusServiceCall {
    /// The service's bus name, object path and interface.
    package let service: String, path: String, interface: String
    private var connection: OpaquePointer?
    private var tried = false

    /// Calls to `interface` of the object at `path` of `service`.
    package init(service: String, path: String, interface: String) {
        self.service = service
        self.path = path
        self.interface = interface
    }

    /// Whether a session bus could be reached (connects on first use,
    /// `g_dbus_connection_new_for_address_sync`).
    package var hasBus: Bool { bus() != nil }

    /// Calls `method` with `arguments` and waits for the reply's values (`g_dbus_connection_call_sync`,
    /// no auto-start); nil without a bus, on an error reply or after `timeoutMilliseconds`.
    package func callAndWait(_ method: String, _ arguments: [DBusValue], timeoutMilliseconds: Int32 = 500) -> [DBusValue]? {
        guard let bus = bus() else { return nil }
        guard let reply = g_dbus_connection_call_sync(bus, service, path, interface, method, DBusValue.tuple(arguments).makeVariant(),
                                                      nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds, nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        guard case .tuple(let values)? = DBusValue(variant: reply) else { return nil }
        return values
    }

    /// Sends `method` with `arguments` without waiting for the reply (`g_dbus_connection_call`
    /// with no callback; ``close()`` flushes it out).
    package func send(_ method: String, _ arguments: [DBusValue]) {
        guard let bus = bus() else { return }
        g_dbus_connection_call(bus, service, path, interface, method, DBusValue.tuple(arguments).makeVariant(), nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, nil, nil)
    }

    /// Flushes what was sent (`g_dbus_connection_flush_sync`), closes the connection and drops it.
    /// Idempotent; a later call connects again.
    package func close() {
        guard let connection else { return }
        g_dbus_connection_flush_sync(connection, nil, nil)
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
        self.connection = nil
        tried = false
    }

    deinit { close() }

    private func bus() -> OpaquePointer? {
        guard !tried else { return connection }
        tried = true
        guard let address = DBusObjectExport.sessionBusAddress else { return nil }
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        var error: UnsafeMutablePointer<GError>?
        connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
        g_clear_error(&error)
        if let connection { g_dbus_connection_set_exit_on_close(connection, 0) }
        return connection
    }
}
