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

    /// The node's XML.
    static let xml = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/>
        <method name="Quit"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="Identity" type="s" access="read"/>
        <property name="DesktopEntry" type="s" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Next"/>
        <method name="Previous"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <method name="Stop"/>
        <method name="Play"/>
        <method name="Seek"><arg direction="in" type="x" name="Offset"/></method>
        <method name="SetPosition">
          <arg direction="in" type="o" name="TrackId"/>
          <arg direction="in" type="x" name="Position"/>
        </method>
        <method name="OpenUri"><arg direction="in" type="s" name="Uri"/></method>
        <signal name="Seeked"><arg type="x" name="Position"/></signal>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="LoopStatus" type="s" access="readwrite"/>
        <property name="Rate" type="d" access="readwrite"/>
        <property name="Shuffle" type="b" access="readwrite"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="Volume" type="d" access="readwrite"/>
        <property name="Position" type="x" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
        </property>
        <property name="MinimumRate" type="d" access="read"/>
        <property name="MaximumRate" type="d" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
        <property name="CanSeek" type="b" access="read"/>
        <property name="CanControl" type="b" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
        </property>
      </interface>
      <interface name="org.mpris.MediaPlayer2.TrackList">
        <method name="GetTracksMetadata">
          <arg direction="in" type="ao" name="TrackIds"/>
          <arg direction="out" type="aa{sv}" name="Metadata"/>
        </method>
        <method name="AddTrack">
          <arg direction="in" type="s" name="Uri"/>
          <arg direction="in" type="o" name="AfterTrack"/>
          <arg direction="in" type="b" name="SetAsCurrent"/>
        </method>
        <method name="RemoveTrack"><arg direction="in" type="o" name="TrackId"/></method>
        <method name="GoTo"><arg direction="in" type="o" name="TrackId"/></method>
        <signal name="TrackListReplaced">
          <arg type="ao" name="Tracks"/>
          <arg type="o" name="CurrentTrack"/>
        </signal>
        <signal name="TrackAdded">
          <arg type="a{sv}" name="Metadata"/>
          <arg type="o" name="AfterTrack"/>
        </signal>
        <signal name="TrackRemoved"><arg type="o" name="TrackId"/></signal>
        <signal name="TrackMetadataChanged">
          <arg type="o" name="TrackId"/>
          <arg type="a{sv}" name="Metadata"/>
        </signal>
        <property name="Tracks" type="ao" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
        </property>
        <property name="CanEditTracks" type="b" access="read"/>
      </interface>
    </node>
    """
}
