import Foundation
import Synchronization
import XCTest

/// A private network for casting tests: a network namespace for the renderers
/// (`gmediarender` refuses the loopback interface), joined by a veth pair to the client side,
/// which is either this host (``ClientSide/host``: gstplay, the Player and the HTTP test
/// server run as usual and restrict themselves to ``clientInterface``) or a second namespace
/// (``ClientSide/namespace``: only what a test starts there through ``clientCommand(_:)`` lives
/// on that network, so every SSDP packet on the link is its own — the no-SSDP test).
///
/// Each lab has its own names and a /30 of its own (from the test process's pid and a
/// counter, in 10.64.0.0/10), `multicast on` on both ends and a `224.0.0.0/4` route in each
/// namespace (on the host side none: GSSDP and the lab's client bind to the interface and set
/// `IP_MULTICAST_IF`, and a host-wide multicast route would steer other programs' packets).
/// ``tearDown()`` (also `deinit`) kills every process left in the namespaces and deletes them
/// (the host end of the veth goes with its peer); labs of test processes that no longer exist
/// (a killed run) are removed when the next lab is made; renderers also die with the test
/// process (parent-death signal KILL, started from ``LabSpawner``'s thread). Needs root
/// (`ip netns`). Any thread.
public final class RendererLab: @unchecked Sendable {
    /// Where the client end of the veth lives.
    public enum ClientSide: Sendable { case host, namespace }

    /// `ip` (iproute2).
    public static let ip: String = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"
    /// Every lab's namespace name starts with this, then `<pid>-<n>`.
    public static let prefix = "gstplay-lab-"

    /// The renderers' namespace.
    public let namespace: String
    /// The client's namespace (``ClientSide/namespace``), nil on the host.
    public let clientNamespace: String?
    /// The client end of the veth: what `--cast-interface` names.
    public let clientInterface: String
    /// The client end's IPv4 address (the one to serve files on).
    public let clientAddress: String
    /// The renderers' end of the veth.
    public let rendererInterface: String
    /// The renderers' IPv4 address.
    public let rendererAddress: String
    /// Scratch directory for the renderers' configuration, XDG directories and logs.
    public let directory: URL

    private let lock = NSLock()
    private var renderers: [LabRenderer] = []
    private var tornDown = false
    private static let counter = Mutex(0)

    /// Makes the namespaces, the veth pair, the addresses and routes; throws (with `ip`'s
    /// message) when one step fails, after undoing the others.
    public init(client: ClientSide = .host) throws {
        Self.removeStaleLabs()
        let pid = Int(getpid())
        let n = Self.counter.withLock { value -> Int in value += 1; return value }
        namespace = "\(Self.prefix)\(pid)-\(n)"
        clientNamespace = client == .namespace ? "\(namespace)-c" : nil
        let tag = "gpl\(pid)x\(String(n, radix: 16))"
        clientInterface = "\(tag)c"
        rendererInterface = "\(tag)r"
        let index = ((pid & 0x7fff) << 3) | (n & 7)
        let base = (10 << 24) | (64 << 16) | (index << 2)
        func dotted(_ v: Int) -> String { "\(v >> 24 & 255).\(v >> 16 & 255).\(v >> 8 & 255).\(v & 255)" }
        clientAddress = dotted(base + 1)
        rendererAddress = dotted(base + 2)
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("renderer-lab-\(n)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try build()
        } catch {
            tearDown()
            throw error
        }
    }

    private func build() throws {
        try Self.ip(["netns", "add", namespace])
        if let clientNamespace { try Self.ip(["netns", "add", clientNamespace]) }
        try Self.ip(["link", "add", clientInterface, "type", "veth", "peer", "name", rendererInterface])
        try Self.ip(["link", "set", rendererInterface, "netns", namespace])
        if let clientNamespace { try Self.ip(["link", "set", clientInterface, "netns", clientNamespace]) }
        try configure(interface: rendererInterface, address: rendererAddress, in: namespace, route: true)
        try configure(interface: clientInterface, address: clientAddress, in: clientNamespace, route: clientNamespace != nil)
    }

    private func configure(interface: String, address: String, in namespace: String?, route: Bool) throws {
        let run = { (arguments: [String]) throws in
            try Self.ip(namespace.map { ["-n", $0] + arguments } ?? arguments)
        }
        if namespace != nil { try run(["link", "set", "lo", "up"]) }
        try run(["addr", "add", "\(address)/30", "dev", interface])
        try run(["link", "set", interface, "multicast", "on", "up"])
        if route { try run(["route", "add", "224.0.0.0/4", "dev", interface]) }
    }

    /// `arguments` as a command line run on the client side: as they are on the host, else
    /// behind `ip netns exec <client namespace>`.
    public func clientCommand(_ arguments: [String]) -> [String] {
        clientNamespace.map { [Self.ip, "netns", "exec", $0] + arguments } ?? arguments
    }

    /// `arguments` as a command line run in the renderers' namespace.
    public func rendererCommand(_ arguments: [String]) -> [String] {
        [Self.ip, "netns", "exec", namespace] + arguments
    }

    /// Runs `arguments` (a command line) in the renderers' namespace to its end (killed after
    /// `timeout`); its status and output.
    @discardableResult
    public func runInRendererNamespace(_ arguments: [String], timeout: TimeInterval = 10) -> (status: Int32?, stdout: String, stderr: String) {
        Self.run(rendererCommand(arguments), timeout: timeout)
    }

    /// Runs `arguments` on the client side (``clientCommand(_:)``) to its end.
    @discardableResult
    public func runOnClientSide(_ arguments: [String], timeout: TimeInterval = 10) -> (status: Int32?, stdout: String, stderr: String) {
        Self.run(clientCommand(arguments), timeout: timeout)
    }

    /// A `gstplay` child on the client side, not started: the built binary with `arguments`
    /// (add `--cast-interface \(clientInterface)` where the test wants it).
    public func gstplay(_ arguments: [String], input: GstplayProcess.Input = .pipe, environment: [String: String]? = nil) -> GstplayProcess {
        let child = GstplayProcess(arguments, input: input, environment: environment)
        let line = clientCommand([GstplayProcess.binary.path] + arguments)
        child.process.executableURL = URL(fileURLWithPath: line[0])
        child.process.arguments = Array(line.dropFirst())
        return child
    }

    /// A `gstplay` child in the renderers' namespace, not started (`ip netns exec`, which execs
    /// gstplay in place: the child's pid is gstplay's).
    public func gstplayInRendererNamespace(_ arguments: [String], environment: [String: String]? = nil) -> GstplayProcess {
        let child = GstplayProcess(arguments, environment: environment)
        let line = rendererCommand([GstplayProcess.binary.path] + arguments)
        child.process.executableURL = URL(fileURLWithPath: line[0])
        child.process.arguments = Array(line.dropFirst())
        return child
    }

    func register(_ renderer: LabRenderer) {
        lock.lock(); defer { lock.unlock() }
        renderers.append(renderer)
    }

    /// Kills the renderers and every other process in the namespaces, deletes them and the
    /// scratch directory. Idempotent; also run by `deinit`.
    public func tearDown() {
        lock.lock()
        let done = tornDown
        tornDown = true
        let started = renderers
        lock.unlock()
        guard !done else { return }
        for renderer in started { renderer.kill() }
        for name in [namespace] + (clientNamespace.map { [$0] } ?? []) { Self.remove(namespace: name) }
        if clientNamespace == nil { _ = try? Self.ip(["link", "del", clientInterface]) }   // gone with its peer already
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { tearDown() }

    // MARK: - ip

    /// Runs `ip ARGUMENTS`; throws with its stderr when it fails.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let result = run([ip] + arguments, timeout: 10)
        guard result.status == 0 else {
            throw NSError(domain: "RendererLab", code: Int(result.status ?? -1), userInfo: [NSLocalizedDescriptionKey:
                "ip \(arguments.joined(separator: " ")): \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"])
        }
        return result.stdout
    }

    /// Runs the command line `line` to its end (SIGKILL after `timeout`).
    static func run(_ line: [String], timeout: TimeInterval) -> (status: Int32?, stdout: String, stderr: String) {
        let child = GstplayProcess.tool(line[0], Array(line.dropFirst()), input: .devNull)
        guard (try? child.start()) != nil else { return (nil, "", "could not start \(line[0])") }
        let status = child.waitForExit(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }

    /// Kills every process in namespace `name` (`ip netns pids`) and deletes it.
    static func remove(namespace name: String) {
        let pids = run([ip, "netns", "pids", name], timeout: 5).stdout.split(separator: "\n").compactMap { pid_t($0) }
        for pid in pids { Foundation.kill(pid, SIGKILL) }
        if !pids.isEmpty {
            _ = eventually(timeout: .seconds(3)) { run([ip, "netns", "pids", name], timeout: 5).stdout.isEmpty }
        }
        _ = run([ip, "netns", "del", name], timeout: 5)
    }

    /// Removes the labs of test processes that are gone (a run killed before its teardown).
    static func removeStaleLabs() {
        for line in run([ip, "netns", "list"], timeout: 5).stdout.split(separator: "\n") {
            let name = String(line.split(separator: " ").first ?? "")
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count).split(separator: "-").first ?? "") else { continue }
            if Foundation.kill(pid, 0) != 0 && errno == ESRCH { remove(namespace: name) }
        }
    }
}
