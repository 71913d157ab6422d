// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gstplay",
    products: [
        .library(name: "Backend", targets: ["Backend"]),
        .executable(name: "gstplay", targets: ["gstplay"]),
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
        // The embeddable player engine.
        .target(
            name: "Backend",
            dependencies: ["CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The command-line frontend.
        .executableTarget(
            name: "gstplay",
            dependencies: [
                "Backend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `make bench`: measures gstplay and the Backend against GStreamer's own tools.
        .executableTarget(
            name: "gstplay-bench",
            dependencies: ["Backend", "CGStreamer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BackendTests",
            dependencies: ["Backend", "CGStreamer"],
            exclude: ["Support/http_test_server.py"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "gstplayTests",
            dependencies: ["gstplay", "Backend"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
