// swift-tools-version:6.0
// What an embedder in a package of its own gets (`make check-embedding`, check.sh).
// `CoreOnly` uses only playback (product `BackendCore`) and must link no libX11; `ReadmeExample`
// is README.md's "Embedding the Backend" example, copied from the README into ReadmeExample/ (not committed) by check.sh, built
// unchanged against product `Backend`; `SocketExample` is Sources/ExampleSocketPlayer, copied likewise, built
// against products `Backend` and `BackendControl` (so everything it uses is public API).
import PackageDescription

let package = Package(
    name: "Embedding",
    dependencies: [
        .package(name: "gstplay", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "CoreOnly",
            dependencies: [.product(name: "BackendCore", package: "gstplay")],
            path: "CoreOnly",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ReadmeExample",
            dependencies: [.product(name: "Backend", package: "gstplay")],
            path: "ReadmeExample",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "SocketExample",
            dependencies: [.product(name: "Backend", package: "gstplay"), .product(name: "BackendControl", package: "gstplay")],
            path: "SocketExample",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
