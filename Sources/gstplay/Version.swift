#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Version strings for `--version` and the JSON `hello` event. Pure values; any thread.
enum GstplayVersion {
    /// This program's version.
    static let current = "0.1.0"

    /// The version of the GStreamer library linked into the process, e.g. "1.22.0".
    ///
    /// The Backend does not export its `GStreamerRuntime.versionString`, and this target does not
    /// import the C module, so the value comes from `gst_version()` looked up with `dlsym` in the
    /// already loaded `libgstreamer-1.0` (it needs no `gst_init`). "unknown" if it is not found.
    static let gstreamer: String = {
        typealias VersionFunction = @convention(c) (UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?,
                                                    UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> Void
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "gst_version") else { return "unknown" }
        let function = unsafeBitCast(symbol, to: VersionFunction.self)
        var major: UInt32 = 0, minor: UInt32 = 0, micro: UInt32 = 0, nano: UInt32 = 0
        function(&major, &minor, &micro, &nano)
        return nano == 0 ? "\(major).\(minor).\(micro)" : "\(major).\(minor).\(micro).\(nano)"
    }()
}
