/// Exit codes (documented in docs/CLI.md). Constants; any thread.
enum ExitStatus {
    /// Played to the end, or quit, with no failed item.
    static let success: Int32 = 0
    /// At least one item failed to play.
    static let playbackError: Int32 = 1
    /// Bad command line (ArgumentParser's validation errors, no arguments).
    static let usage: Int32 = 2
    /// `gstplay cover`: the media has no cover art.
    static let noCoverArt: Int32 = 3
    /// The control socket (`--input-ipc-server`) could not be made: in use by a running player,
    /// the path is not a socket, or binding failed.
    static let controlSocket: Int32 = 4
    /// The web remote (`--remote`) could not listen: the address is not an IP address of this
    /// machine, or the port is taken.
    static let remote: Int32 = 5
    /// `--list-renderers` found no renderer.
    static let noRenderers: Int32 = 6
    /// Casting failed (`--cast` found no renderer, or the renderer refused the media, stopped
    /// answering or went away); playback went on locally and no item failed.
    static let castFailed: Int32 = 7
    /// A door's system library (libsoup, GUPnP, Xlib) could not be opened when the door opened.
    /// Exited with by Modules/DoorLoader's C resolver (`DOOR_LOADER_EXIT_STATUS`), listed here for `--help`.
    static let doorLibraryMissing: Int32 = 8
    /// Hung up (SIGHUP: the terminal went away).
    static let hangup: Int32 = 129
    /// Interrupted (SIGINT, Ctrl-C).
    static let interrupted: Int32 = 130
    /// Quit from the keyboard (SIGQUIT, Ctrl-\): ends gstplay as SIGTERM does (mpv quits too).
    static let quitSignal: Int32 = 131
    /// Terminated (SIGTERM).
    static let terminated: Int32 = 143
}
