// ExampleSocketPlayer: how an app serves mpv's JSON IPC (and gstplay's JSON protocol) for a
// player of its own, with BackendControl: `PlayerControl(player:)` and `serveSocket(path:)`.
//
//   ExampleSocketPlayer <file-or-uri> <socket-path>
//
// It plays the file headless (clock-synchronised fake sinks, so it needs no display or sound
// card) and serves the socket; any mpv IPC client (mpv's own scripts, python-mpv-jsonipc, socat)
// then reads and sets `volume`, `pause`, observes `time-pos`, seeks, and ends it with `quit`.
// Prints `serving <socket-path>` once the socket listens, for Tests/gstplayTests/ExampleSocketPlayerTests.swift.
// Exit codes: the code `quit` asked for (0 without one), 2 bad arguments, 4 the socket could not be made.

import Backend
import BackendControl
import Glibc

/// Writes one line straight to a file descriptor (unbuffered, so a pipe sees it at once).
func say(_ text: String, to fd: Int32 = 1) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, !arguments[0].isEmpty, !arguments[1].isEmpty else {
    say("usage: ExampleSocketPlayer <file-or-uri> <socket-path>", to: 2)
    exit(2)
}
let (location, socketPath) = (arguments[0], arguments[1])
let uri: String
do {
    uri = try MediaLocation.uri(for: location)
} catch {
    say("error: \(location): \(error.message)", to: 2)
    exit(2)
}

var configuration = PlayerConfiguration()
configuration.videoSink = .description("fakesink sync=true")
configuration.audioSink = .description("fakesink sync=true")
let player = Player(configuration: configuration)          // the standard features: the queue, tracks, chapters…

// The door: the control dispatches every client's requests and sends them the player's events.
let control = PlayerControl(player: player) { line in say(line, to: 2) }
let socket: ControlSocket
do {
    socket = try control.serveSocket(path: socketPath)
} catch {
    say("error: \(error)", to: 2)
    player.shutdown()
    exit(4)
}
say("serving \(socket.path)")
player.playNow(QueueItem(uri: uri))

let code = await control.untilQuit()                       // a client's `quit`, once answered
player.shutdown()
socket.close()
exit(code)
