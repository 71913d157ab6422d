/// The three MPRIS 2.2 interfaces the feature exports at `/org/mpris/MediaPlayer2`, as
/// introspection XML (`g_dbus_node_info_new_for_xml`): the spec's members with their types
/// (<https://specifications.freedesktop.org/mpris-spec/2.2/>), without the optional
/// `Fullscreen`/`CanSetFullscreen` and the Playlists interface.
enum MPRISIntrospection {
    /// The object path the spec fixes.
    static let path = "/org/mpris/MediaPlayer2"
    /// The root interface.
    static let root = "org.mpris.MediaPlayer2"
    /// The player interface.
    static let player = "org.mpris.MediaPlayer2.Player"
    /// The track list interface.
    static let trackList = "org.mpris.MediaPlayer2.TrackList"
    /// The spec's "no track" object path.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// The node's XML: `mpris.xml` next to this file, embedded in the binary at build time
    /// (SwiftPM's `embedInCode`, no resource bundle to install).
    static let xml = String(decoding: PackageResources.mpris_xml, as: UTF8.self)
}
