// udp-relay: the UDPRelay of the tests as a program, for the sync bench (Tests/Bench/bench-sync.py),
// which runs it inside a network namespace in front of the leader's network clock.
//
//   udp-relay --listen HOST:PORT --to HOST:PORT [--delay-ms D] [--jitter-ms J] [--loss-percent P]
//
// Prints `udp-relay: listening on HOST:PORT` once relaying, and its counts at SIGINT/SIGTERM.
#if canImport(Glibc)
import Glibc
#endif
import UDPRelay

func say(_ line: String, to fd: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    say("udp-relay: \(message)", to: 2)
    exit(2)
}

func hostPort(_ text: String) -> (String, UInt16) {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { fail("expected HOST:PORT, got '\(text)'") }
    return (String(text[..<colon]), port)
}

func run() {
var values: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard ["--listen", "--to", "--delay-ms", "--jitter-ms", "--loss-percent"].contains(name), let value = arguments.popFirst() else {
        fail("usage: udp-relay --listen HOST:PORT --to HOST:PORT [--delay-ms D] [--jitter-ms J] [--loss-percent P]")
    }
    values[name] = value
}
guard let listenText = values["--listen"], let toText = values["--to"] else { fail("--listen and --to are required") }
let number = { (name: String) -> Double in
    guard let text = values[name] else { return 0 }
    guard let value = Double(text), value >= 0 else { fail("\(name) must be a number, 0 or more (got '\(text)')") }
    return value
}
let (listenHost, listenPort) = hostPort(listenText)
let (serverHost, serverPort) = hostPort(toText)
let shape = UDPLinkShape(delayMilliseconds: number("--delay-ms"), jitterMilliseconds: number("--jitter-ms"), loss: number("--loss-percent") / 100)
let relay: UDPRelay
do {
    relay = try UDPRelay(listenHost: listenHost, listenPort: listenPort, serverHost: serverHost, serverPort: serverPort, shape: shape)
} catch {
    fail("\(error)")
}
say("udp-relay: listening on \(listenHost):\(relay.port)")

var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &signals, nil)   // the relay thread started above keeps its own mask: it never takes them
var received: Int32 = 0
sigwait(&signals, &received)
relay.stop()
let counts = relay.statistics
say("udp-relay: to-server \(counts.toServer) dropped \(counts.droppedToServer), to-client \(counts.toClient) dropped \(counts.droppedToClient)")
}

run()
