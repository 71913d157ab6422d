@testable import BackendCore
import CGStreamer
import XCTest

/// The plugins the `gst-init` thread loads ahead of a play (``GStreamerRuntime/startupPlugins``):
/// each name is a plugin of this registry, and preloading leaves every one of them loaded.
final class StartupPluginPreloadTests: XCTestCase {
    func testEveryStartupPluginIsInTheRegistryAndLoadedAfterThePreload() throws {
        GStreamerRuntime.ensureInitialized()
        GStreamerRuntime.preloadStartupPlugins()
        let registry = try XCTUnwrap(gst_registry_get())
        for name in GStreamerRuntime.startupPlugins {
            let plugin = try XCTUnwrap(gst_registry_find_plugin(registry, name), "\(name) is not a plugin of this registry")
            defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
            XCTAssertNotEqual(gst_plugin_is_loaded(plugin), 0, "\(name) not loaded")
        }
    }
}
