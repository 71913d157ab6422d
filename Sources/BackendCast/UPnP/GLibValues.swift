import CGStreamer
import CGUPnP

/// The small GLib conversions the UPnP layer needs (GObject casts, strings, errors). **Thread:** any.
enum GLibValues {
    /// `G_TYPE_STRING`: every SOAP argument travels as text, so the layer reads and writes strings.
    static let stringType: GType = g_type_from_name("gchararray")

    /// A GObject pointer as another type of the same object (GLib's `G_TYPE_CHECK_INSTANCE_CAST`
    /// without the check: the caller knows the hierarchy, e.g. a `GUPnPDeviceProxy` is a `GUPnPDeviceInfo`).
    static func cast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
    }

    /// A string GLib allocated (`g_free`), taken and freed; nil stays nil.
    static func take(_ string: UnsafeMutablePointer<gchar>?) -> String? {
        guard let string else { return nil }
        defer { g_free(string) }
        return String(cString: string)
    }

    /// Frees `error` (`g_error_free`) and maps it to a ``CastError``: a UPnP SOAP fault
    /// (`GUPNP_CONTROL_ERROR`, its code the UPnP `errorCode`) becomes ``CastError/renderer(code:description:)``,
    /// a refused, reset or unreachable connection ``CastError/gone``, GIO's timeout ``CastError/timeout``.
    static func castError(taking error: UnsafeMutablePointer<GError>) -> CastError {
        defer { g_error_free(error) }
        let domain = error.pointee.domain, code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if domain == gupnp_control_error_quark() { return .renderer(code: Int(code), description: message) }
        if domain == g_io_error_quark() {
            switch GIOErrorEnum(rawValue: UInt32(code)) {
            case G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE,
                 G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_NOT_CONNECTED:
                return .gone
            case G_IO_ERROR_TIMED_OUT: return .timeout
            default: break
            }
        }
        return .transport(message)
    }
}
