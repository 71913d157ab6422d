/// The built-in key bindings: an input.conf in mpv's syntax, printed as is by `--list-keys`.
///
/// It is a Swift string rather than a SwiftPM resource so the one `gstplay` binary needs no
/// resource bundle next to it wherever it is installed; `--list-keys` gives the file back
/// (`gstplay --list-keys > ~/.config/gstplay/input.conf` is a starting point). Each line is
/// `KEY command [args…]` with a console command of ``ConsoleCommand``; the text after `#` is
/// the summary `?` and `gstplay help keys` show. Pure; any thread.
public enum BuiltinInputConf {
    /// The name warnings give for this file.
    public static let name = "built-in input.conf"

    /// The file's text.
    public static let text = #"""
    # gstplay's built-in key bindings (mpv's input.conf syntax): KEY COMMAND [ARGS...]
    # COMMAND is a console command ('gstplay help commands'). Lines in
    # $XDG_CONFIG_HOME/gstplay/input.conf (or --input-conf FILE) replace these key by key;
    # 'KEY ignore' unbinds a key. The text after '#' is what '?' shows.
    SPACE         cycle pause            # pause / resume
    LEFT          seek -10               # seek back 10 s
    RIGHT         seek +10               # seek forward 10 s
    DOWN          seek -60               # seek back 60 s
    UP            seek +60               # seek forward 60 s
    9             add volume -2          # volume down
    0             add volume 2           # volume up
    -             add speed -0.1         # rate -0.1
    +             add speed 0.1          # rate +0.1
    =             add speed 0.1          # rate +0.1
    m             cycle mute             # mute / unmute
    M             cycle mute             # mute / unmute
    f             cycle fullscreen       # fullscreen on / off (video window)
    F             cycle fullscreen       # fullscreen on / off (video window)
    n             playlist-next          # next item
    N             playlist-next          # next item
    >             playlist-next          # next item
    p             playlist-prev          # previous item
    P             playlist-prev          # previous item
    <             playlist-prev          # previous item
    S             snapshot               # snapshot (PNG in the current directory or --screenshot-directory)
    a             cycle audio            # next audio track
    s             cycle sub              # next subtitle track (off after the last)
    j             cycle sub              # next subtitle track (off after the last)
    J             cycle sub              # next subtitle track (off after the last)
    v             cycle sub-visibility   # show / hide subtitles on the video
    V             cycle video            # next video track
    o             osd                    # on-screen display: position and bar
    O             osd                    # on-screen display: position and bar
    PGDWN         chapter next           # next chapter
    ]             chapter next           # next chapter
    PGUP          chapter prev           # previous chapter
    [             chapter prev           # previous chapter
    c             cycle cast             # cast to the next renderer found, then off
    l             ab-loop                # A-B loop: set A, set B (loops), clear
    .             frame-step             # pause and step one frame forward
    ,             frame-back-step        # pause and step one frame back
    ?             keys                   # show the keys
    h             keys                   # show the keys
    k             keys                   # show the keys
    q             quit                   # quit
    Q             quit                   # quit
    MBTN_LEFT     cycle pause            # pause / resume (video window)
    MBTN_LEFT_DBL cycle fullscreen       # fullscreen on / off (video window)
    WHEEL_UP      seek +10               # seek forward 10 s (video window)
    WHEEL_DOWN    seek -10               # seek back 10 s (video window)

    """#
}
