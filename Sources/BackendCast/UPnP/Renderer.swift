/// A UPnP AV MediaRenderer (`urn:schemas-upnp-org:device:MediaRenderer:1`) found by
/// ``RendererDiscovery``: what a list of cast targets shows and what ``RendererControl`` needs.
///
/// **Thread:** a value; made on the player's loop thread, read anywhere.
public struct Renderer: Sendable, Hashable, Codable {
    /// The device's unique name (`UDN` of its description, `uuid:…`): stable across restarts.
    public var udn: String
    /// The name the device gives itself (`friendlyName`, `gupnp_device_info_get_friendly_name`).
    public var friendlyName: String
    /// The device's model (`modelName`), nil when the description has none.
    public var model: String?
    /// What it accepts: the `Sink` list of `ConnectionManager:GetProtocolInfo`, one protocolInfo
    /// each (`http-get:*:video/mp4:*`); empty when the renderer did not answer in time.
    public var protocols: [String]
    /// The URL of its device description (`LOCATION` of its SSDP announcement).
    public var location: String
    /// The local IP address of the GUPnP context (network interface) that reached it
    /// (`gssdp_client_get_host_ip`): the address a file served to it must be reachable on.
    public var hostAddress: String

    /// A renderer as described; ``RendererDiscovery`` makes them.
    public init(udn: String, friendlyName: String, model: String?, protocols: [String], location: String, hostAddress: String) {
        self.udn = udn
        self.friendlyName = friendlyName
        self.model = model
        self.protocols = protocols
        self.location = location
        self.hostAddress = hostAddress
    }
}
