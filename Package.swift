// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kblink",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "KeyboardLink", targets: ["KeyboardLink"]),
        .executable(name: "kblinkd", targets: ["kblinkd"]),
        .executable(name: "kblink", targets: ["kblink"]),
        .executable(name: "kblink-bench", targets: ["KBBench"]),
    ],
    targets: [
        // The C fence: libdbus-1 and libbluetooth. Only DBus/ and the Bluetooth shims import it.
        .systemLibrary(
            name: "CBlueZ",
            path: "Sources/CBlueZ",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev", "libbluetooth-dev"])]
        ),
        .target(
            name: "KeyboardLink",
            dependencies: ["CBlueZ"],
            path: "Sources/KeyboardLink"
        ),
        .executableTarget(name: "kblinkd", dependencies: ["KeyboardLink"], path: "Sources/kblinkd"),
        .executableTarget(name: "kblink", dependencies: ["KeyboardLink"], path: "Sources/kblink"),
        // A reference client/server pair written directly against libdbus, for side-by-side benchmarks.
        .target(name: "CReference", dependencies: ["CBlueZ"], path: "Benchmarks/CReference"),
        .executableTarget(
            name: "KBBench",
            dependencies: ["KeyboardLink", "CReference"],
            path: "Benchmarks/KBBench"
        ),
        .testTarget(
            name: "KeyboardLinkTests",
            dependencies: ["KeyboardLink"],
            path: "Tests/KeyboardLinkTests"
        ),
        .testTarget(
            name: "KeyboardLinkIntegrationTests",
            dependencies: ["KeyboardLink"],
            path: "Tests/KeyboardLinkIntegrationTests",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
