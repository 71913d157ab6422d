import ArgumentParser
import Backend
import BackendControl
import CGStreamer
import Glibc

/// `--mpris` / `--no-mpris`. Parsed by ArgumentParser; any thread.
struct MPRISOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "MPRIS 2 on the session bus (media keys, playerctl); default on with a terminal or window."))
    var mpris: Bool?
}

/// Whether this run joins the session bus, and as what (the CLI's MPRIS policy). Any thread.
enum MPRISSetup {
    /// The MPRIS settings for a run with `options`, nil for none: `--no-mpris`, no session bus
    /// (a note when `--mpris` asked for it), or by default `--json`, or neither a terminal
    /// (stdin or stdout) nor a window (a display and video on). Cover art for `mpris:artUrl` goes
    /// to `g_get_user_cache_dir()/gstplay/mpris`.
    static func configuration(for options: RunOptions, note: (String) -> Void) -> MPRISConfiguration? {
        switch options.mpris {
        case false?: return nil
        case true?:
            guard MPRISFeature.sessionBusAvailable else {
                note("gstplay: MPRIS is off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
                return nil
            }
        case nil:
            let terminal = isatty(STDIN_FILENO) == 1 || isatty(STDOUT_FILENO) == 1
            let window = options.videoSink != .disabled && (hasValue("DISPLAY") || hasValue("WAYLAND_DISPLAY"))
            guard !options.json, terminal || window, MPRISFeature.sessionBusAvailable else { return nil }
        }
        var configuration = MPRISConfiguration()
        configuration.supportedMIMETypes = PlayableMIMETypes.playable()
        configuration.artDirectory = (String(validatingCString: g_get_user_cache_dir()) ?? "/tmp") + "/gstplay/mpris"
        return configuration
    }

    private static func hasValue(_ name: String) -> Bool { getenv(name).map { $0.pointee != 0 } ?? false }
}
