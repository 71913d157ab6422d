// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gstplay",
    products: [
        // Embedders: the core and every feature (the README's example).
        .library(name: "Backend", targets: ["Backend"]),
        // Embedders who want playback only: the core, no feature targets (links no libX11).
        .library(name: "BackendCore", targets: ["BackendCore"]),
        // Embedders who want gstplay's command language: the JSON protocol's wire types, the mpv IPC subset.
        .library(name: "BackendControl", targets: ["BackendControl"]),
        .executable(name: "gstplay", targets: ["gstplay"]),
        // Desktop: an app that plays into its own X11 window through the Backend.
        .executable(name: "ExampleX11Player", targets: ["ExampleX11Player"]),
        // An app that plays a file headless and serves the mpv IPC socket through BackendControl.
        .executable(name: "ExampleSocketPlayer", targets: ["ExampleSocketPlayer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The only C in the project: GStreamer headers plus a thin shim for macros and varargs.
        .systemLibrary(
            name: "CGStreamer",
            path: "Modules/CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-pbutils-1.0",
            providers: [.apt([
                "libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev",
            ])]
        ),
        // The door libraries (docs/ADR-004-door-libraries.md): what only the web remote, casting, the
        // cache's revalidation or the video window needs is not linked. CSoup, CGUPnP and CX11 each
        // declare their library's headers and carry generated trampolines (stubs.S, libraries.c:
        // Modules/DoorLoader/generate-stubs.py) for the functions the package calls; the first call
        // opens the library by soname (DoorLoader), so a headless play maps none of them.
        .target(
            name: "DoorLoader",
            path: "Modules/DoorLoader",
            exclude: ["generate-stubs.py"],
            linkerSettings: [.linkedLibrary("gmodule-2.0")]   // the door libraries open through GModule
        ),
        // Desktop: Xlib and XScreenSaver, for the video window (BackendWindow: title, fullscreen) and the
        // embedding example; opened at the first X call (no DISPLAY, no window: never).
        .target(
            name: "CX11",
            dependencies: ["DoorLoader"],
            path: "Modules/CX11"
        ),
        // The X Fixes extension, for the display tests only (the cursor shown at the pointer).
        .systemLibrary(
            name: "CXFixes",
            path: "Modules/CXFixes",
            pkgConfig: "xfixes",
            providers: [.apt(["libxfixes-dev"])]
        ),
        // libsoup 3, for the media cache's conditional requests (revalidation) and HTTPServe (the web
        // remote's and casting's server); opened at the first libsoup call. Its headers: include/libsoup.
        .target(
            name: "CSoup",
            dependencies: ["CGStreamer", "DoorLoader"],
            path: "Modules/CSoup"
        ),
        // GUPnP 1.6 (on GSSDP) and GUPnP-AV, for casting to UPnP/DLNA renderers (BackendCast); opened
        // at the first GUPnP call (discovery). Its headers: include/libgupnp, libgssdp, libgupnp-av, libxml.
        .target(
            name: "CGUPnP",
            dependencies: ["CSoup", "CGStreamer", "DoorLoader"],
            path: "Modules/CGUPnP"
        ),
        // libgstnet (GStreamer's network clock), for playing in sync across machines (BackendSync)
        // only; opened at the first call of one of its functions (Modules/DoorLoader).
        .target(
            name: "CGstNet",
            dependencies: ["DoorLoader"],
            path: "Modules/CGstNet"
        ),
        // The GLib plumbing under the core, the features and the doors; it knows no player: the
        // loop thread (MainLoopThread, TimerSource), C callback boxes, workers and detached threads,
        // GDBus (exporting objects, calling services, GVariant values), the Unix socket server,
        // and atomic files with the JSON store on them.
        .target(
            name: "GLibSupport",
            dependencies: ["CGStreamer", "DirectoryWalk"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The player core: pipeline, state model, seeks, sinks, bus, timers, event hub, and the
        // one feature protocol (PlayerFeature), on GLibSupport's loop thread. It names no feature.
        .target(
            name: "BackendCore",
            dependencies: ["CGStreamer", "GLibSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The media cache (seed 001) as a feature: complete http(s) downloads kept and
        // played from disk; libsoup for its revalidation requests.
        .target(
            name: "BackendCache",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer", "CSoup", "DirectoryWalk"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Resume positions and choices (mpv's watch-later): `ResumeStore`, one JSON file in a directory the caller names.
        .target(
            name: "BackendResume",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The play queue (PlayerFeature): items, loop, shuffle, gapless hand-over, playlist files.
        .target(
            name: "BackendQueue",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Adaptive streaming (HLS/DASH) as a feature: the ABR policy, variants, stalls.
        .target(
            name: "BackendAdaptive",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Tracks and subtitles: stream info and selection, external subtitle files,
        // subtitle cues as events, offsets, global tags.
        .target(
            name: "BackendTracks",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer", "DirectoryWalk"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Chapters: the table of contents (GST_MESSAGE_TOC) flattened, the current
        // chapter, seeks to chapters.
        .target(
            name: "BackendChapters",
            dependencies: ["BackendCore", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Tags and cover art: the media's tags, its picture, pictures for audio-only
        // media in the window (playbin's visualisation path).
        .target(
            name: "BackendTags",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Casting to UPnP/DLNA renderers: discovery and control on GUPnP (UPnP/), the
        // cast feature that routes playback to a renderer; local files served with HTTPServe.
        .target(
            name: "BackendCast",
            dependencies: ["BackendCore", "GLibSupport", "HTTPServe", "CGStreamer", "CGUPnP"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Playing in sync across machines: a leader publishes its clock (GstNetTimeProvider) and its
        // session (HTTPServe: GET /sync/session, WebSocket /sync/events); followers slave their
        // pipeline to it (GstNetClientClock) and play the same item at the same moment.
        .target(
            name: "BackendSync",
            dependencies: ["BackendCore", "GLibSupport", "BackendQueue", "HTTPServe", "CGStreamer", "CGstNet", "CSoup"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The umbrella embedders import: re-exports the core and the feature targets and
        // plugs the standard features into `Player(configuration:delegate:)`.
        .target(
            name: "Backend",
            dependencies: ["BackendCore", "BackendQueue", "BackendCache", "BackendAdaptive", "BackendTracks", "BackendWindow", "BackendThumbnails", "BackendResume", "BackendChapters", "BackendTags", "BackendMPRIS", "BackendOSD", "BackendCast", "BackendSync"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The on-screen display: a `textoverlay` in the video filter chain showing
        // state, position and a bar, volume, rate and messages for ~1.5 s. No Xlib.
        .target(
            name: "BackendOSD",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The video window: render target, title, keys, fullscreen, gravity. The only
        // feature that calls Xlib (opened at its first call, CX11), so BackendCore alone names no libX11.
        .target(
            name: "BackendWindow",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer", "CX11"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // MPRIS 2 on the session bus: media keys, shell controls, playerctl (GDBus, in GIO).
        .target(
            name: "BackendMPRIS",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            resources: [.embedInCode("mpris.xml")],     // the introspection XML, in the binary
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Thumbnails, contact sheets and the player's frame snapshot (`Player.snapshot`).
        .target(
            name: "BackendThumbnails",
            dependencies: ["BackendCore", "GLibSupport", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The one directory listing (GLib's GDir) of the Backend and ProcessProbe.
        // Its own target because ProcessProbe must not link the Backend; it uses CGStreamer's
        // GLib headers rather than a second module map that would include glib.h again.
        .target(
            name: "DirectoryWalk",
            dependencies: ["CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A small HTTP/WebSocket server on libsoup 3 (token, Origin check, files with
        // Range, bounded WebSocket clients): the web remote's, and the casting feature's.
        // A utility target, not a feature: it knows no Player.
        .target(
            name: "HTTPServe",
            dependencies: ["GLibSupport", "CGStreamer", "CSoup"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The command language over the Backend, for the CLI and for embedders: the JSON
        // protocol's wire types (Wire/), the console grammar (Console/), the mpv IPC subset (Mpv/),
        // the dispatcher that runs them against a Player (Dispatch/) and its transports: the Unix
        // socket (Control/) and the web remote (Remote/, on HTTPServe).
        .target(
            name: "BackendControl",
            dependencies: ["Backend", "BackendCore", "GLibSupport", "CGStreamer", "HTTPServe"],
            resources: [.embedInCode("Remote/remote.html")],     // the web remote's page, in the binary
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The command-line frontend.
        .executableTarget(
            name: "gstplay",
            dependencies: [
                "Backend",
                "BackendControl",
                "GLibSupport",  // DetachedThread: the blocking stdin and signal readers
                "HTTPServe",    // --remote's errors
                "CGStreamer",   // g_get_user_cache_dir / g_get_user_state_dir: the cache and resume directories
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Desktop"],   // the desktop entry template, its icon and script (make install)
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `make bench`: measures gstplay and the Backend against GStreamer's own tools.
        .executableTarget(
            name: "gstplay-bench",
            dependencies: ["Backend", "CGStreamer", "ProcessProbe", "StreamingQoE"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Bandwidth traces and the linear QoE score (MPC/Pensieve), pure Swift: used by the
        // tests' trace-shaped server and by the QoE bench (gstplay-bench).
        .target(
            name: "StreamingQoE",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test support: one /proc reader for the tests and the bench (a plain library under
        // Sources/, so the shipped bench does not link test code or XCTest).
        .target(
            name: "ProcessProbe",
            dependencies: ["DirectoryWalk"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test support shared by the test targets: the HTTP fault server, event waits,
        // fake-sink players, fixture paths (links XCTest; never part of a product).
        // Every test process gets directories of its own before main() (Tests/TestSupport/TestProcess.swift).
        .target(name: "CTestIsolation", path: "Tests/CTestIsolation"),
        .target(
            name: "TestSupport",
            dependencies: ["Backend", "BackendCore", "ProcessProbe", "CTestIsolation", "CGStreamer", "StreamingQoE", "UDPRelay"],
            path: "Tests/TestSupport",
            exclude: ["http_test_server.py", "http_trace.py", "ssdp_sniffer.py", "ssdp_search_loop.py"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test support: a UDP relay adding delay, jitter and loss (no netem here), for the tests
        // (through TestSupport) and the sync bench (the `udp-relay` program); no XCTest.
        .target(name: "UDPRelay", path: "Tests/UDPRelay", swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "udp-relay", dependencies: ["UDPRelay"], path: "Tests/UDPRelayTool",
                          swiftSettings: [.swiftLanguageMode(.v6)]),
        // Desktop: an X11 window made with Xlib that the Backend plays into.
        .executableTarget(
            name: "ExampleX11Player",
            dependencies: ["Backend", "CX11"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // An app that embeds Backend and BackendControl: plays a file, serves the mpv socket.
        .executableTarget(
            name: "ExampleSocketPlayer",
            dependencies: ["Backend", "BackendControl"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BackendTests",
            dependencies: ["Backend", "BackendCore", "GLibSupport", "BackendQueue", "BackendCache", "BackendAdaptive", "BackendTracks", "BackendWindow", "BackendThumbnails", "BackendResume", "BackendChapters", "BackendMPRIS", "BackendOSD", "CGStreamer", "HTTPServe", "TestSupport", "StreamingQoE", "BackendCast", "CGUPnP", "BackendSync"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "gstplayTests",
            dependencies: ["gstplay", "BackendControl", "Backend", "BackendCore", "BackendQueue", "BackendCache", "TestSupport"],
            exclude: ["Golden"],   // golden JSON lines, read from the source tree by GoldenWireTests
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Fuzz targets for every parser of outside text, on the product's own
        // modules: `make test` replays Tests/Fuzz/corpus through them; `make fuzz` builds the
        // same graph with coverage and runs libFuzzer through them (Tests/Fuzz/README.md).
        .testTarget(
            name: "FuzzTests",
            dependencies: ["gstplay", "BackendControl", "Backend", "BackendCore", "GLibSupport", "BackendQueue", "BackendAdaptive", "BackendTracks", "BackendCache", "BackendResume",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/Fuzz",
            exclude: ["corpus", "README.md", "fuzz-self.sh"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Desktop: tests that need an X server (each starts its own Xvfb).
        .testTarget(
            name: "DisplayTests",
            dependencies: ["Backend", "BackendCore", "GLibSupport", "BackendWindow", "BackendOSD", "CGStreamer", "CX11", "CXFixes", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The bench harness (gstplay-bench) itself: its process runner and servers.
        .testTarget(
            name: "BenchTests",
            dependencies: ["gstplay-bench", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
