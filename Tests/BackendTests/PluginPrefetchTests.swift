@testable import Backend
@testable import BackendCore
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// Loading a kind of media's plugins ahead of its pipeline (``PluginPrefetchFeature``): the kind
/// of a URI, the store's records, what a real play records, and the preloader loading a record.
final class PluginPrefetchTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = NSTemporaryDirectory() + "gstplay-prefetch-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testTheKindOfAURIIsItsSchemeAndLowerCaseExtension() {
        XCTAssertEqual(PluginPrefetchStore.kind(of: "file:///media/Clip.MP4"), "file:mp4")
        XCTAssertEqual(PluginPrefetchStore.kind(of: "https://example.org/live/index.m3u8?token=a.b"), "https:m3u8")
        XCTAssertEqual(PluginPrefetchStore.kind(of: "file:///media/dotted.dir/clip.webm"), "file:webm")
        XCTAssertNil(PluginPrefetchStore.kind(of: "file:///media/dotted.dir/no-extension"))
        XCTAssertNil(PluginPrefetchStore.kind(of: "https://example.org/"))
        XCTAssertNil(PluginPrefetchStore.kind(of: "http://example.org/a.extension-too-long"))
        XCTAssertNil(PluginPrefetchStore.kind(of: "not a uri"))
    }

    func testARecordReplacesTheKindsAndTheOldestKindsGoFirst() throws {
        let store = PluginPrefetchStore(path: directory + "/cache/plugin-prefetch.json")
        XCTAssertEqual(store.records(), [:], "no file yet")
        store.record(["isomp4", "libav"], for: "file:mp4")
        XCTAssertEqual(store.records(), ["file:mp4": ["isomp4", "libav"]])
        let written = try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int
        store.record(["isomp4", "libav"], for: "file:mp4")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int, written,
                       "the same record again leaves the file alone")
        store.record(["matroska", "../x", "vpx"], for: "file:mp4")
        XCTAssertEqual(store.records(), ["file:mp4": ["matroska", "vpx"]], "replaced, a name that is no plugin name dropped")
        for number in 0..<PluginPrefetchStore.capacity { store.record(["p\(number)"], for: "file:k\(number)") }
        let records = store.records()
        XCTAssertEqual(records.count, PluginPrefetchStore.capacity)
        XCTAssertNil(records["file:mp4"], "the oldest kind went")
        XCTAssertEqual(records["file:k\(PluginPrefetchStore.capacity - 1)"], ["p\(PluginPrefetchStore.capacity - 1)"])
    }

    func testAPlayRecordsItsMediaPluginsAndNoSinkOrStartUpPlugin() async throws {
        let store = PluginPrefetchStore(path: directory + "/plugin-prefetch.json")
        let player = Player(configuration: .fakeSinks(), features: [PluginPrefetchFeature(store: store)])
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { if case .stateChanged(_, .playing) = $0 { true } else { false } },
                                 after: { player.load(TestMedia.vp8) })
        let deadline = Date().addingTimeInterval(10)
        while store.records()["file:webm"] == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let plugins = try XCTUnwrap(store.records()["file:webm"], "nothing recorded for file:webm")
        for expected in ["matroska", "vpx", "opus"] { XCTAssertTrue(plugins.contains(expected), "\(expected) not in \(plugins)") }
        XCTAssertLessThan(try XCTUnwrap(plugins.firstIndex(of: "matroska")), try XCTUnwrap(plugins.firstIndex(of: "vpx")),
                          "the demuxer's plugin goes before the decoder's: the order the pipeline needs them")
        for startup in GStreamerRuntime.startupPlugins { XCTAssertFalse(plugins.contains(startup), "\(startup) in \(plugins)") }
    }

    func testAPlayLoadsItsKindsRecordAheadAndReplacesTheRecordWithWhatItNeeded() async throws {
        GStreamerRuntime.ensureInitialized()
        let registry = try XCTUnwrap(gst_registry_get())
        // The YUV4MPEG encoder: a plugin no play and no other test loads, recorded as if a past
        // play of a .webm had needed it.
        let plugin = try XCTUnwrap(gst_registry_find_plugin(registry, "y4menc"), "gst-plugins-good's y4menc plugin is not installed")
        defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        XCTAssertEqual(gst_plugin_is_loaded(plugin), 0, "y4menc is loaded already: this test could not fail")
        let store = PluginPrefetchStore(path: directory + "/plugin-prefetch.json")
        store.record(["y4menc"], for: "file:webm")
        let player = Player(configuration: .fakeSinks(), features: [PluginPrefetchFeature(store: store)])
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { if case .stateChanged(_, .playing) = $0 { true } else { false } },
                                 after: { player.load(TestMedia.vp8) })
        let deadline = Date().addingTimeInterval(10)
        while (!PluginPreloader.isIdle || store.records()["file:webm"] == ["y4menc"]) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let loaded = try XCTUnwrap(gst_registry_find_plugin(registry, "y4menc"))
        defer { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
        XCTAssertNotEqual(gst_plugin_is_loaded(loaded), 0, "the record's plugin was not loaded ahead of the play")
        let replaced = try XCTUnwrap(store.records()["file:webm"])
        XCTAssertFalse(replaced.contains("y4menc"), "a plugin the play did not use stays in the record: \(replaced)")
        XCTAssertTrue(replaced.contains("vpx"), "\(replaced)")
    }

    func testAPrefetchLoadsTheNamedPluginsAndSkipsUnknownNames() async throws {
        GStreamerRuntime.ensureInitialized()
        let registry = try XCTUnwrap(gst_registry_get())
        // SMPTE transitions: a plugin no play and no other test loads.
        let plugin = try XCTUnwrap(gst_registry_find_plugin(registry, "smpte"), "gst-plugins-good's smpte plugin is not installed")
        defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        XCTAssertEqual(gst_plugin_is_loaded(plugin), 0, "smpte is loaded already: this test could not fail")
        PluginPreloader.prefetch(["no-such-plugin", "smpte"])
        let deadline = Date().addingTimeInterval(10)
        while !PluginPreloader.isIdle && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(PluginPreloader.isIdle, "the loader is still running")
        let loaded = try XCTUnwrap(gst_registry_find_plugin(registry, "smpte"))
        defer { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
        XCTAssertNotEqual(gst_plugin_is_loaded(loaded), 0, "smpte not loaded after the prefetch")
    }
}
