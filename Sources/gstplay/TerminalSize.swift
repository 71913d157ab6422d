import FoundationEssentials
import Glibc

/// Terminal facts (`isatty`, `ioctl(TIOCGWINSZ)`). Any thread.
enum TerminalSize {
    /// Columns of the terminal on `fd`; 80 when unknown.
    static func columns(fd: Int32 = STDOUT_FILENO) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// True when `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
