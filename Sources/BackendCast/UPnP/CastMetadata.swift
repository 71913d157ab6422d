import BackendCore
import CGStreamer
import CGUPnP

/// What a renderer is told about the media it is given (`CurrentURIMetaData`): one DIDL-Lite
/// item written by GUPnP-AV's `GUPnPDIDLLiteWriter` — title, class, and one resource with its
/// URI, `protocolInfo` and `duration`.
///
/// **Thread:** a value; ``didlLite(uri:)`` may run on any thread.
public struct CastMetadata: Sendable, Hashable {
    /// `dc:title`.
    public var title: String
    /// `res@duration` in seconds (written as `H:MM:SS`), nil when unknown or live.
    public var duration: Double?
    /// The media's MIME type (`video/mp4`, `audio/ogg`); picks the `upnp:class` and, without
    /// ``protocolInfo``, the resource's `http-get:*:MIME:*`.
    public var mimeType: String
    /// `res@protocolInfo` as given (one of the renderer's ``Renderer/protocols``, say), nil for `http-get:*:MIME:*`.
    public var protocolInfo: String?

    /// Metadata for one item.
    public init(title: String, duration: Double? = nil, mimeType: String, protocolInfo: String? = nil) {
        self.title = title
        self.duration = duration
        self.mimeType = mimeType
        self.protocolInfo = protocolInfo
    }

    /// `object.item.videoItem`, `object.item.audioItem.musicTrack`, `object.item.imageItem` or `object.item`.
    public var upnpClass: String {
        if mimeType.hasPrefix("video/") { return "object.item.videoItem" }
        if mimeType.hasPrefix("audio/") { return "object.item.audioItem.musicTrack" }
        if mimeType.hasPrefix("image/") { return "object.item.imageItem" }
        return "object.item"
    }

    /// The `<DIDL-Lite>` document for `uri` (`gupnp_didl_lite_writer_get_string`).
    public func didlLite(uri: String) -> String {
        let writer = gupnp_didl_lite_writer_new(nil)!
        defer { g_object_unref(writer) }
        let item = gupnp_didl_lite_writer_add_item(writer)!
        defer { g_object_unref(item) }
        let object = GLibValues.cast(item, to: GUPnPDIDLLiteObject.self)
        gupnp_didl_lite_object_set_id(object, "0")
        gupnp_didl_lite_object_set_parent_id(object, "-1")
        gupnp_didl_lite_object_set_restricted(object, 1)
        gupnp_didl_lite_object_set_title(object, title)
        gupnp_didl_lite_object_set_upnp_class(object, upnpClass)
        let resource = gupnp_didl_lite_object_add_resource(object)!
        defer { g_object_unref(resource) }
        gupnp_didl_lite_resource_set_uri(resource, uri)
        if let duration, duration.isFinite, duration > 0 {
            gupnp_didl_lite_resource_set_duration(resource, WholeNumber.clamped(duration.rounded(), to: 0...Int.max))
        }
        var error: UnsafeMutablePointer<GError>?
        if let info = gupnp_protocol_info_new_from_string(protocolInfo ?? "http-get:*:\(mimeType):*", &error) {
            gupnp_didl_lite_resource_set_protocol_info(resource, info)
            g_object_unref(info)
        }
        if let error { g_error_free(error) }
        return GLibValues.take(gupnp_didl_lite_writer_get_string(writer)) ?? ""
    }
}
