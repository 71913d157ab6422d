@testable import BackendCore
import CGStreamer
import XCTest

/// What the `gst-init` thread loads ahead of a play (``GStreamerRuntime/startupPlugins`` and the
/// plugins of ``GStreamerRuntime/outputChainElements``): each name is in this registry, and
/// loading leaves every one of those plugins loaded.
final class StartupPluginPreloadTests: XCTestCase {
    func testEveryStartupPluginIsInTheRegistryAndLoadedAfterThePreload() throws {
        GStreamerRuntime.ensureInitialized()
        for name in GStreamerRuntime.startupPlugins { PluginPreloader.load(.plugin(name)) }
        let registry = try XCTUnwrap(gst_registry_get())
        for name in GStreamerRuntime.startupPlugins {
            let plugin = try XCTUnwrap(gst_registry_find_plugin(registry, name), "\(name) is not a plugin of this registry")
            defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
            XCTAssertNotEqual(gst_plugin_is_loaded(plugin), 0, "\(name) not loaded")
        }
    }

    func testEveryOutputChainElementIsInTheRegistryAndItsPluginLoadedAfterThePreload() throws {
        GStreamerRuntime.ensureInitialized()
        for name in GStreamerRuntime.outputChainElements { PluginPreloader.load(.pluginProviding(name)) }
        let registry = try XCTUnwrap(gst_registry_get())
        for name in GStreamerRuntime.outputChainElements {
            let feature = try XCTUnwrap(gst_registry_lookup_feature(registry, name), "no element \(name) in this registry")
            defer { gst_object_unref(UnsafeMutableRawPointer(feature)) }
            let pluginName = try XCTUnwrap(gst_plugin_feature_get_plugin_name(feature).map { String(cString: $0) })
            let plugin = try XCTUnwrap(gst_registry_find_plugin(registry, pluginName))
            defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
            XCTAssertNotEqual(gst_plugin_is_loaded(plugin), 0, "\(pluginName), the plugin of \(name), not loaded")
        }
    }
}
