import CGStreamer
import Foundation
import XCTest

/// A private D-Bus session bus for one test: a real `dbus-daemon --session` (Debian package
/// `dbus`) listening in the test's temporary directory; ``address`` is its
/// `DBUS_SESSION_BUS_ADDRESS`. Stopped (SIGTERM, waited for) by deinit.
final class PrivateSessionBus {
    let address: String
    private let daemon = Process()

    init(timeout: TimeInterval = 10) throws {
        guard let path = XvfbServer.which("dbus-daemon") else { throw XvfbError("dbus-daemon not found: `make test` installs dbus") }
        let pipe = Pipe()
        daemon.executableURL = URL(fileURLWithPath: path)
        daemon.arguments = ["--session", "--nofork", "--print-address=1", "--address=unix:tmpdir=\(NSTemporaryDirectory())"]
        daemon.standardOutput = pipe
        daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try daemon.run()
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while !data.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        address = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw XvfbError("dbus-daemon printed no address") }
    }

    deinit {
        if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() }
    }
}

/// The other end of the freedesktop.org idle-inhibition API on a ``PrivateSessionBus``: it owns
/// `org.freedesktop.ScreenSaver`, exports `/org/freedesktop/ScreenSaver` with `Inhibit(ss) → u`
/// and `UnInhibit(u)` (GIO's GDBus, on a thread of its own) and records the calls. It stands in
/// for the desktop's screensaver (light-locker and xscreensaver-systemd, which implement this
/// interface in Debian 12, both exit without logind, which a container has no way to run); it
/// shares no code with the player, so the player's calls cross a real bus daemon as they would
/// on a desktop.
final class ScreenSaverService: @unchecked Sendable {
    private let lock = NSCondition()
    private var recorded: [String] = []
    private var nextCookie: UInt32 = 41
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var connection: OpaquePointer?
    private var thread: Thread?
    private var setUpFailure: String?

    private static let xml = """
        <node><interface name="org.freedesktop.ScreenSaver">
          <method name="Inhibit"><arg name="application_name" type="s" direction="in"/><arg name="reason_for_inhibit" type="s" direction="in"/>
            <arg name="cookie" type="u" direction="out"/></method>
          <method name="UnInhibit"><arg name="cookie" type="u" direction="in"/></method>
        </interface></node>
        """

    /// Connects to the bus at `address`, exports the object, takes the name and serves calls.
    init(address: String) throws {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            defer { g_main_context_pop_thread_default(context) }
            let failure = setUp(address: address)
            lock.withLock { setUpFailure = failure }
            ready.signal()
            if failure == nil { g_main_loop_run(loop) }
        }
        self.thread = thread
        thread.start()
        ready.wait()
        if let failure = lock.withLock({ setUpFailure }) { throw XvfbError(failure) }
    }

    /// The calls so far: `Inhibit <application> <reason> -> <cookie>`, `UnInhibit <cookie>`.
    var calls: [String] { lock.withLock { recorded } }

    /// Waits up to `timeout` seconds until `count` calls were made; returns them.
    func waitForCalls(_ count: Int, timeout: TimeInterval = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while recorded.count < count && lock.wait(until: deadline) {}
        return recorded
    }

    private func setUp(address: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
        guard let connection else { defer { g_clear_error(&error) }; return "cannot connect to \(address): \(String(cString: error!.pointee.message))" }
        let node = g_dbus_node_info_new_for_xml(Self.xml, &error)!
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            let service = Unmanaged<ScreenSaverService>.fromOpaque(data!).takeUnretainedValue()
            service.answer(String(cString: method!), parameters!, invocation!)
        }
        let registered = g_dbus_connection_register_object(connection, "/org/freedesktop/ScreenSaver", node.pointee.interfaces[0], &vtable,
                                                           Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registered != 0 else { defer { g_clear_error(&error) }; return "register_object failed" }
        let name = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                               g_variant_new_tuple([g_variant_new_string("org.freedesktop.ScreenSaver"), g_variant_new_uint32(4)], 2),
                                               nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        guard let name else { defer { g_clear_error(&error) }; return "RequestName failed" }
        g_variant_unref(name)
        return nil
    }

    private func answer(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        func string(_ index: Int) -> String {
            let child = g_variant_get_child_value(parameters, gsize(index))!
            defer { g_variant_unref(child) }
            return String(cString: g_variant_get_string(child, nil))
        }
        if method == "Inhibit" {
            let cookie = lock.withLock { nextCookie += 1; return nextCookie }
            record("Inhibit \(string(0)) \(string(1)) -> \(cookie)")
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple([g_variant_new_uint32(cookie)], 1))
        } else {
            let child = g_variant_get_child_value(parameters, 0)!
            record("UnInhibit \(g_variant_get_uint32(child))")
            g_variant_unref(child)
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    }

    private func record(_ call: String) {
        lock.withLock { recorded.append(call) }
        lock.broadcast()
    }

    deinit {
        g_main_loop_quit(loop)
        while thread?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
        if let connection {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}
