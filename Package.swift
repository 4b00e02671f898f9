// swift-tools-version:6.0
import PackageDescription

/// How kblinkd and kblink are linked: with lld, relative relocations packed (DT_RELR, glibc 2.36 and later: a few
/// KiB instead of 0.7 MiB of relocation records read at every start) and no dynamic symbol table of our own
/// functions (swiftc exports them by default; nothing looks them up). docs/performance.md, section 3, "Code layout".
let compactLinking = [
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
]

/// kblinkd's functions that run from start-up to idle, placed first and together, so that the code it runs fills a
/// few large folios instead of touching most of the binary (regenerate the list with scripts/order-file); and the
/// functions Swift emits without a symbol, which an ordering file cannot name, together in front (kblinkd.ld).
let kblinkdCodeLayout = [
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/kblinkd/kblinkd.order",
    "-Xlinker", "--no-warn-symbol-ordering",
    "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/Sources/kblinkd/kblinkd.ld",
]

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
            path: "Sources/KeyboardLink",
            // One section per function, so that the linker can place the functions kblinkd runs together.
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "kblinkd",
            dependencies: ["KeyboardLink"],
            path: "Sources/kblinkd",
            exclude: ["kblinkd.order", "kblinkd.ld"],
            linkerSettings: [.unsafeFlags(compactLinking + kblinkdCodeLayout, .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "kblink",
            dependencies: ["KeyboardLink"],
            path: "Sources/kblink",
            linkerSettings: [.unsafeFlags(compactLinking, .when(platforms: [.linux]))]
        ),
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
