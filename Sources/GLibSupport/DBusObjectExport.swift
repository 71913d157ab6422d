import CGStreamer

/// What answers the calls made on an object exported with ``DBusObjectExport``.
/// **Thread:** the thread whose thread-default `GMainContext` was current when the object was
/// exported (a player's loop thread); GDBus dispatches every call there. Work that changes
/// anything should be queued (the loop's own sources deliver events afterwards).
package protocol DBusObjectHandler: AnyObject {
    /// A method call: the reply's values (an empty list for none), or an error.
    func call(interface: String, method: String, arguments: [DBusValue]) -> Result<[DBusValue], DBusCallError>
    /// A property's value, nil for an unknown one.
    func property(interface: String, name: String) -> DBusValue?
    /// Sets a property; an error when it is unknown, read-only or the value is wrong.
    func setProperty(interface: String, name: String, value: DBusValue) -> DBusCallError?
}

/// A D-Bus error reply: its name (`org.freedesktop.DBus.Error.InvalidArgs`…) and message.
package struct DBusCallError: Error, Sendable, Hashable {
    /// The error's D-Bus name.
    package var name: String
    /// The text for the caller.
    package var message: String
    /// An error named `name`.
    package init(name: String, message: String) { self.name = name; self.message = message }
    /// `org.freedesktop.DBus.Error.InvalidArgs`.
    package static func invalidArgs(_ message: String) -> DBusCallError {
        DBusCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
    /// `org.freedesktop.DBus.Error.NotSupported`.
    package static func notSupported(_ message: String) -> DBusCallError {
        DBusCallError(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }
}

/// One object on a D-Bus message bus, exported with GDBus (part of GIO): a connection of its own
/// (`g_dbus_connection_new_for_address_sync`), every interface of an introspection XML registered
/// at one path (`g_dbus_node_info_new_for_xml`, `g_dbus_connection_register_object`), a
/// well-known name owned (the bus's `RequestName`, the first free one of the names offered),
/// signals (`g_dbus_connection_emit_signal`).
/// ``close()`` (or `deinit`) unowns, unregisters, closes and releases everything.
///
/// **Thread:** create it, emit and close it on one thread whose thread-default `GMainContext`
/// runs (a player's loop thread: `MainLoopThread` pushes its context): GDBus dispatches the
/// handler's calls to that context. The handler is held weakly; its box (a ``CallbackBox``)
/// is released by GDBus's destroy-notify once unregistered.
package final class DBusObjectExport {
    /// The address of the session bus, nil when there is none: `DBUS_SESSION_BUS_ADDRESS`, else
    /// the socket `$XDG_RUNTIME_DIR/bus` when it exists (what `g_dbus_address_get_for_bus_sync`
    /// looks at, without its X11 autolaunch, which would start a bus daemon). Any thread.
    package static var sessionBusAddress: String? {
        if let address = g_getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !address.isEmpty { return address }
        guard let runtime = g_get_user_runtime_dir().map({ String(cString: $0) }) else { return nil }
        let socket = runtime + "/bus"
        return g_file_test(socket, G_FILE_TEST_EXISTS) != 0 ? "unix:path=" + socket : nil
    }

    /// The bus connection (`GDBusConnection`), nil once closed.
    private var connection: OpaquePointer?
    private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    private var registrations: [guint] = []
    /// The object's path.
    package let path: String
    /// The well-known name owned (the first of the names offered that nobody else owned).
    package private(set) var name = ""

    /// Connects to the bus at `address`, registers the interfaces of `introspectionXML` at `path`
    /// answered by `handler`, then owns the first of `names` that no other connection owns (the
    /// bus decides: `RequestName` with `DO_NOT_QUEUE`, in order). Throws a one-line reason when a
    /// step fails or every name is taken (nothing is left behind then).
    package init(address: String, names: some Sequence<String>, path: String, introspectionXML: String,
                 handler: any DBusObjectHandler) throws(DBusCallError) {
        self.path = path
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw Self.failure("cannot connect to the session bus", error)
        }
        self.connection = connection
        g_dbus_connection_set_exit_on_close(connection, 0)
        guard let node = g_dbus_node_info_new_for_xml(introspectionXML, &error) else {
            close()
            throw Self.failure("bad introspection XML", error)
        }
        self.node = node
        var interface = node.pointee.interfaces
        while let info = interface?.pointee {
            let box = CallbackBox(WeakHandler(handler))
            let id = g_dbus_connection_register_object(connection, path, info, dbusObjectVTable, box.retainedPointer,
                                                       callbackBoxRelease, &error)
            guard id != 0 else {
                close()
                throw Self.failure("cannot register \(path)", error)
            }
            registrations.append(id)
            interface = interface?.advanced(by: 1)
        }
        for candidate in names {
            switch Self.busCall(connection, "RequestName", [.string(candidate), .uint32(Self.doNotQueue)]) {
            case .success(let reply) where reply == [.uint32(Self.primaryOwner)]:
                name = candidate
                return
            case .success:
                continue    // owned by another connection
            case .failure(let failure):
                close()
                throw failure
            }
        }
        close()
        throw DBusCallError(name: "org.freedesktop.DBus.Error.Failed", message: "every bus name offered is taken")
    }

    /// `RequestName`'s flag: fail rather than wait in line for a name someone owns.
    private static let doNotQueue: UInt32 = 4
    /// `RequestName`'s answer when the name is ours now.
    private static let primaryOwner: UInt32 = 1

    /// `method` of the bus itself (`org.freedesktop.DBus`), waited for (`g_dbus_connection_call_sync`).
    private static func busCall(_ connection: OpaquePointer, _ method: String, _ arguments: [DBusValue]) -> Result<[DBusValue], DBusCallError> {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      method, DBusValue.tuple(arguments).makeVariant(), nil,
                                                      G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error) else {
            return .failure(failure("cannot \(method) on the bus", error))
        }
        defer { g_variant_unref(reply) }
        guard case .tuple(let values)? = DBusValue(variant: reply) else { return .success([]) }
        return .success(values)
    }

    /// Emits `signal` of `interface` from the object with `arguments` (a tuple) to every listener.
    package func emit(interface: String, signal: String, arguments: [DBusValue]) {
        guard let connection else { return }
        g_dbus_connection_emit_signal(connection, nil, path, interface, signal, DBusValue.tuple(arguments).makeVariant(), nil)
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface`: `changed` with values.
    package func emitPropertiesChanged(interface: String, changed: [String: DBusValue]) {
        guard !changed.isEmpty else { return }
        emit(interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged",
             arguments: [.string(interface), .dictionary(changed), .array(element: "s", [])])
    }

    /// Gives the name back, unregisters the object, closes the connection (flushing what was
    /// sent) and releases it. Idempotent.
    package func close() {
        guard let connection else { return }
        // Given back and acknowledged before the connection goes, so the name is free again
        // when this returns.
        if !name.isEmpty { _ = Self.busCall(connection, "ReleaseName", [.string(name)]) }
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        registrations.removeAll()
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
        self.connection = nil
        if let node { g_dbus_node_info_unref(node) }
        node = nil
    }

    deinit { close() }

    private static func failure(_ what: String, _ error: UnsafeMutablePointer<GError>?) -> DBusCallError {
        defer { if let error { g_error_free(error) } }
        let detail = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        return DBusCallError(name: "org.freedesktop.DBus.Error.Failed", message: "\(what): \(detail)")
    }
}

/// The handler as the registration's user data holds it (weakly: the export owns nothing of it).
private final class WeakHandler {
    weak var handler: (any DBusObjectHandler)?
    init(_ handler: any DBusObjectHandler) { self.handler = handler }
}

private func handler(_ data: UnsafeMutableRawPointer?) -> (any DBusObjectHandler)? {
    data.flatMap { CallbackBox<WeakHandler>.from($0).value.handler }
}

private func text(_ pointer: UnsafePointer<gchar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

/// Sets `error` (a `GError**`) to a `G_DBUS_ERROR` with the D-Bus name in the message.
private func setError(_ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?, _ failure: DBusCallError) {
    g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_INVALID_ARGS.rawValue), "\(failure.name): \(failure.message)")
}

/// The one vtable of every exported object (static: GDBus may keep the pointer for the
/// registration's lifetime); each call finds its handler through the registration's user data.
nonisolated(unsafe) private let dbusObjectVTable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
    let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
    table.initialize(to: GDBusInterfaceVTable())
    table.pointee.method_call = { _, _, _, interface, method, parameters, invocation, data in
        let arguments: [DBusValue]
        if let parameters, case .tuple(let values)? = DBusValue(variant: parameters) { arguments = values } else { arguments = [] }
        guard let handler = handler(data) else {
            return g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "the player is gone")
        }
        switch handler.call(interface: text(interface), method: text(method), arguments: arguments) {
        case .success(let values): g_dbus_method_invocation_return_value(invocation, DBusValue.tuple(values).makeVariant())
        case .failure(let failure): g_dbus_method_invocation_return_dbus_error(invocation, failure.name, failure.message)
        }
    }
    table.pointee.get_property = { _, _, _, interface, property, error, data in
        guard let value = handler(data)?.property(interface: text(interface), name: text(property)) else {
            setError(error, .invalidArgs("no property \(text(property))"))
            return nil
        }
        return value.makeVariant()
    }
    table.pointee.set_property = { _, _, _, interface, property, value, error, data in
        guard let value, let decoded = DBusValue(variant: value) else {
            setError(error, .invalidArgs("unreadable value")); return 0
        }
        guard let handler = handler(data) else {
            setError(error, DBusCallError(name: "org.freedesktop.DBus.Error.Failed", message: "the player is gone")); return 0
        }
        if let failure = handler.setProperty(interface: text(interface), name: text(property), value: decoded) {
            setError(error, failure); return 0
        }
        return 1
    }
    return table
}()
