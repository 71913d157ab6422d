// ExampleX11Player: how an app embeds the Backend's video into a window of its own.
//
//   ExampleX11Player [--size WxH] [--gravity fit|fill|stretch] [--seconds N] <file-or-uri>
//
// It opens an X11 window with plain Xlib (Modules/CX11), hands its id to the player with
// `Player.setRenderTarget(windowHandle:)`, and plays the file into it until the end (or for N
// seconds). Window resizes and exposes are passed on with `Player.expose()`. Prints one line per
// state change and per whole second played, for Tests/DisplayTests/ExampleX11PlayerTests.swift.
// Exit codes: 0 played, 1 playback error, 2 bad arguments or no X display.

import Backend
import CX11
import Dispatch
import Glibc
import Synchronization

struct Options {
    var width: UInt32 = 480
    var height: UInt32 = 270
    var gravity = VideoGravity.fit
    var seconds: Double?
    var location = ""

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--size":
                let parts = (rest.popFirst() ?? "").split(separator: "x").compactMap { UInt32($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw UsageError("--size takes WxH, e.g. 640x360") }
                (width, height) = (parts[0], parts[1])
            case "--gravity":
                guard let value = rest.popFirst().flatMap(VideoGravity.init(rawValue:)) else { throw UsageError("--gravity takes fit, fill or stretch") }
                gravity = value
            case "--seconds":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { throw UsageError("--seconds takes a positive number") }
                seconds = value
            default:
                guard location.isEmpty, !argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
                location = argument
            }
        }
        guard !location.isEmpty else { throw UsageError("no file given") }
    }
}

struct UsageError: Error { let text: String; init(_ text: String) { self.text = text } }

/// Writes one line straight to a file descriptor (unbuffered, so a pipe sees it at once).
func say(_ text: String, to fd: Int32 = 1) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// Prints the player's news (on the player's loop thread) and remembers when playback is over.
final class Reporter: PlayerDelegate {
    let finished = Mutex<Int32?>(nil)
    private let lastSecond = Mutex(-1)

    func player(_ player: Player, didChangeStateFrom old: PlayerState, to new: PlayerState) {
        say("state \(new)")
    }
    func player(_ player: Player, didUpdatePosition position: MediaTime, duration: MediaTime?) {
        let second = Int(position.seconds)
        let isNew = lastSecond.withLock { last in
            defer { last = max(last, second) }
            return second > last
        }
        if isNew { say("position \(second)") }
    }
    func player(_ player: Player, didReachEndAt position: MediaTime) {
        say("end")
        finished.withLock { $0 = $0 ?? 0 }
    }
    func player(_ player: Player, didFail error: PlayerError) {
        say("error \(error)")
        finished.withLock { $0 = $0 ?? 1 }
    }
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    say("error: \(error.text)\nusage: ExampleX11Player [--size WxH] [--gravity fit|fill|stretch] [--seconds N] <file-or-uri>", to: 2)
    exit(2)
}
guard let display = XOpenDisplay(nil) else {
    say("error: cannot open the X display (is DISPLAY set?)", to: 2)
    exit(2)
}
let screen = CX11_default_screen(display)
let black = CX11_black_pixel(display, screen)
let window = XCreateSimpleWindow(display, CX11_root_window(display, screen), 0, 0, options.width, options.height, 0, black, black)
XStoreName(display, window, "ExampleX11Player")
XSelectInput(display, window, ExposureMask | StructureNotifyMask)
XMapWindow(display, window)
XSync(display, 0)

let reporter = Reporter()
let player = Player(delegate: reporter)
player.setRenderTarget(windowHandle: UInt(window))
player.setVideoGravity(options.gravity)
player.load(options.location)

let deadline = options.seconds.map { DispatchTime.now() + $0 }
var event = XEvent()
while reporter.finished.withLock({ $0 }) == nil {
    while XPending(display) > 0 {
        XNextEvent(display, &event)
        if event.type == Expose || event.type == ConfigureNotify { player.expose() }
    }
    if let deadline, DispatchTime.now() >= deadline {
        reporter.finished.withLock { $0 = $0 ?? 0 }
        break
    }
    usleep(20_000)
}
player.shutdown()
XDestroyWindow(display, window)
XCloseDisplay(display)
exit(reporter.finished.withLock { $0 } ?? 0)
