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

/// A library target of the KeyboardLink family: its sources in `Sources/KeyboardLink/<path>`, compiled with one section
/// per function so that the linker can place the functions kblinkd runs together (kblinkd.order).
func library(_ name: String, path: String, dependencies: [Target.Dependency] = []) -> Target {
    .target(
        name: name,
        dependencies: dependencies,
        path: "Sources/KeyboardLink/\(path)",
        swiftSettings: [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux]))]
    )
}

/// Every library target: what the umbrella re-exports.
let libraryTargetNames = [
    "InsetCore", "KBlinkAPI", "KeyboardLinkAuthorization", "KeyboardLinkBlueZ", "KeyboardLinkClient",
    "KeyboardLinkCommandLine", "KeyboardLinkDBus", "KeyboardLinkDesktop", "KeyboardLinkDoctor", "KeyboardLinkDrivers",
    "KeyboardLinkFirmware", "KeyboardLinkHostFix", "KeyboardLinkKeymap", "KeyboardLinkKeymapFiles",
    "KeyboardLinkPairing",
    "KeyboardLinkPresence", "KeyboardLinkService", "KeyboardLinkSimulator", "KeyboardLinkSupport",
]

/// The unit tests of one library target: `Tests/<library>Tests`, depending on the library and on the `others` its
/// tests also use (PackageDependencyTests holds the list to the files' imports).
func unitTests(of library: String, alsoUsing others: [String] = []) -> Target {
    .testTarget(
        name: "\(library)Tests",
        dependencies: ([library] + others).map { .target(name: $0) },
        path: "Tests/\(library)Tests"
    )
}

let package = Package(
    name: "kblink",
    platforms: [.macOS(.v14)],
    products: [
        // For embedders, one product per layer: the D-Bus binding alone, the org.kblink1 contract (names, types,
        // errors) on top of it, and the typed client on top of that (docs/embedding.md). They are the public
        // surface: every other library target is `package` (PublicSurfaceTests), and the umbrella is no product.
        .library(name: "KeyboardLinkDBus", targets: ["KeyboardLinkDBus"]),
        .library(name: "KBlinkAPI", targets: ["KBlinkAPI"]),
        .library(name: "KeyboardLinkClient", targets: ["KeyboardLinkClient"]),
        .executable(name: "kblinkd", targets: ["kblinkd"]),
        .executable(name: "kblinkd-demo", targets: ["kblinkd-demo"]),
        .executable(name: "kblink", targets: ["kblink"]),
        .executable(name: "kblink-fix-host", targets: ["kblink-fix-host"]),
        .executable(name: "kblink-bench", targets: ["KBBench"]),
    ],
    targets: [
        // The C fence, one module per library, so that what links one does not link the other: libdbus-1 (only
        // DBus/LibDBus imports it) and libbluetooth (only Firmware/Internal, for the company names).
        .systemLibrary(
            name: "CDBus",
            path: "Sources/CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CBluetooth",
            path: "Sources/CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // The library, one target per domain under Sources/KeyboardLink (docs/architecture.md draws the graph).
        // Arrows point one way: the layout core and Support depend on nothing, the binding on the C fence only, the
        // domains and the org.kblink1 contract (KBlinkAPI) on the binding; the daemon's side (Authorization,
        // Service) on the domains and the contract, the client's side (Client, Desktop, CommandLine) on the
        // contract alone, so that kblink links no domain it does not print (ClientLinkageTests).
        library("KeyboardLinkSupport", path: "Support"),
        library("InsetCore", path: "InsetCore"),
        library("KeyboardLinkDBus", path: "DBus", dependencies: ["CDBus", "KeyboardLinkSupport"]),
        library("KeyboardLinkKeymap", path: "Keymap", dependencies: ["KeyboardLinkSupport"]),
        library("KeyboardLinkBlueZ", path: "BlueZ", dependencies: ["KeyboardLinkDBus"]),
        // Keymap files people keep (ZMK .keymap, QMK keymap.json, Vial .vil, keymap-drawer YAML): read and written by
        // the CLI only, so that a hostile file is parsed where it can hurt least.
        library(
            "KeyboardLinkKeymapFiles", path: "KeymapFiles", dependencies: ["KeyboardLinkKeymap"]),
        library(
            "KeyboardLinkFirmware", path: "Firmware",
            dependencies: ["CBluetooth", "KeyboardLinkBlueZ", "KeyboardLinkSupport"]),
        library("KeyboardLinkPresence", path: "Presence", dependencies: ["KeyboardLinkBlueZ", "KeyboardLinkSupport"]),
        library(
            "KeyboardLinkDrivers", path: "Drivers",
            dependencies: ["KeyboardLinkBlueZ", "KeyboardLinkKeymap", "KeyboardLinkSupport"]),
        library(
            "KBlinkAPI", path: "API",
            dependencies: [
                "InsetCore", "KeyboardLinkDBus", "KeyboardLinkBlueZ", "KeyboardLinkKeymap", "KeyboardLinkSupport",
            ]),
        library(
            "KeyboardLinkPairing", path: "Pairing",
            dependencies: ["KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkSupport"]),
        library(
            "KeyboardLinkAuthorization", path: "Authorization",
            dependencies: ["KBlinkAPI", "KeyboardLinkDBus", "KeyboardLinkSupport"]),
        library(
            "KeyboardLinkService", path: "Service",
            dependencies: [
                "InsetCore", "KBlinkAPI", "KeyboardLinkAuthorization", "KeyboardLinkBlueZ", "KeyboardLinkDBus",
                "KeyboardLinkDrivers", "KeyboardLinkFirmware", "KeyboardLinkKeymap", "KeyboardLinkPairing",
                "KeyboardLinkPresence", "KeyboardLinkSupport",
            ]),
        library(
            "KeyboardLinkClient", path: "Client",
            dependencies: ["KBlinkAPI", "KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkSupport"]),
        library(
            "KeyboardLinkCommandLine", path: "CommandLine",
            dependencies: [
                "InsetCore", "KBlinkAPI", "KeyboardLinkBlueZ", "KeyboardLinkClient", "KeyboardLinkDBus",
                "KeyboardLinkDesktop", "KeyboardLinkDoctor", "KeyboardLinkHostFix", "KeyboardLinkKeymap",
                "KeyboardLinkKeymapFiles", "KeyboardLinkSupport",
            ]),
        // `kblink doctor`'s checks: the host through a replaceable root, kblinkd and BlueZ through the bus (client side).
        library(
            "KeyboardLinkDoctor", path: "Doctor",
            dependencies: [
                "KBlinkAPI", "KeyboardLinkClient", "KeyboardLinkDBus", "KeyboardLinkHostFix", "KeyboardLinkSupport",
            ]),
        // The host changes `kblink doctor --fix` may make and their undo; what kblink-fix-host runs as root.
        library("KeyboardLinkHostFix", path: "HostFix", dependencies: ["KeyboardLinkSupport"]),
        // The user-session agent that puts on-screen keyboards away (`kblink osk-agent`): dconf, squeekboard, KWin.
        library(
            "KeyboardLinkDesktop", path: "Desktop",
            dependencies: ["KBlinkAPI", "KeyboardLinkDBus", "KeyboardLinkSupport"]),
        library(
            "KeyboardLinkSimulator", path: "Simulator",
            dependencies: [
                "KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkDrivers", "KeyboardLinkFirmware",
                "KeyboardLinkKeymap", "KeyboardLinkSupport",
            ]),
        // The umbrella: re-exports every library target, for the package's own tests, benchmarks and programs. No
        // product holds it: all it adds to the three products above is `package`, of no use outside the package.
        library(
            "KeyboardLink", path: "Umbrella",
            dependencies: libraryTargetNames.map { .target(name: $0) }),
        .executableTarget(
            name: "kblinkd",
            dependencies: ["KBlinkAPI", "KeyboardLinkDrivers", "KeyboardLinkService", "KeyboardLinkSupport"],
            path: "Sources/kblinkd",
            exclude: ["kblinkd.order", "kblinkd.ld"],
            linkerSettings: [.unsafeFlags(compactLinking + kblinkdCodeLayout, .when(platforms: [.linux]))]
        ),
        // kblinkd with a simulated BlueZ on a private bus: the demo, and what the CLI's end-to-end tests run.
        .executableTarget(
            name: "kblinkd-demo",
            dependencies: [
                "KBlinkAPI", "KeyboardLinkAuthorization", "KeyboardLinkDBus", "KeyboardLinkService",
                "KeyboardLinkSimulator", "KeyboardLinkSupport",
            ],
            path: "Sources/kblinkd-demo",
            linkerSettings: [.unsafeFlags(compactLinking, .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "kblink",
            dependencies: ["KeyboardLinkCommandLine"],
            path: "Sources/kblink",
            linkerSettings: [.unsafeFlags(compactLinking, .when(platforms: [.linux]))]
        ),
        // The root helper `kblink doctor --fix` starts through pkexec (polkit action org.kblink1.fix-host).
        .executableTarget(
            name: "kblink-fix-host",
            dependencies: ["KeyboardLinkHostFix"],
            path: "Sources/kblink-fix-host",
            linkerSettings: [.unsafeFlags(compactLinking, .when(platforms: [.linux]))]
        ),
        // A reference client/server pair written directly against libdbus, for side-by-side benchmarks.
        .target(name: "CReference", dependencies: ["CDBus"], path: "Benchmarks/CReference"),
        .executableTarget(
            name: "KBBench",
            dependencies: ["KeyboardLink", "CReference"],
            path: "Benchmarks/KBBench"
        ),
        // What the test targets share: temporary directories, child processes, waiting for a condition, the seeded
        // random generator, fixtures.
        .target(
            name: "KeyboardLinkTestSupport",
            dependencies: ["InsetCore", "KeyboardLinkSupport"],
            path: "Tests/KeyboardLinkTestSupport"
        ),
        // One unit-test target per library target, named after it; each depends on its library and on what its
        // tests also build values of, never on the umbrella.
        unitTests(of: "InsetCore", alsoUsing: ["KeyboardLinkTestSupport"]),
        unitTests(of: "KBlinkAPI", alsoUsing: ["KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkTestSupport"]),
        unitTests(of: "KeyboardLinkBlueZ", alsoUsing: ["KeyboardLinkDBus"]),
        unitTests(of: "KeyboardLinkClient", alsoUsing: ["KBlinkAPI", "KeyboardLinkDBus"]),
        unitTests(
            of: "KeyboardLinkCommandLine",
            alsoUsing: [
                "InsetCore", "KBlinkAPI", "KeyboardLinkBlueZ", "KeyboardLinkClient", "KeyboardLinkDBus",
                "KeyboardLinkSupport", "KeyboardLinkTestSupport",
            ]),
        unitTests(of: "KeyboardLinkDBus"),
        unitTests(of: "KeyboardLinkDesktop", alsoUsing: ["KeyboardLinkSupport"]),
        unitTests(
            of: "KeyboardLinkDoctor",
            alsoUsing: ["KBlinkAPI", "KeyboardLinkDBus", "KeyboardLinkSupport", "KeyboardLinkTestSupport"]),
        unitTests(
            of: "KeyboardLinkDrivers",
            alsoUsing: [
                "KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkKeymap", "KeyboardLinkSimulator",
                "KeyboardLinkTestSupport",
            ]),
        unitTests(
            of: "KeyboardLinkFirmware",
            alsoUsing: ["KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkSupport", "KeyboardLinkTestSupport"]),
        unitTests(of: "KeyboardLinkKeymap", alsoUsing: ["KeyboardLinkSupport", "KeyboardLinkTestSupport"]),
        unitTests(of: "KeyboardLinkKeymapFiles", alsoUsing: ["KeyboardLinkKeymap", "KeyboardLinkTestSupport"]),
        unitTests(of: "KeyboardLinkPairing", alsoUsing: ["KeyboardLinkDBus", "KeyboardLinkTestSupport"]),
        unitTests(
            of: "KeyboardLinkPresence",
            alsoUsing: ["KeyboardLinkBlueZ", "KeyboardLinkSupport", "KeyboardLinkTestSupport"]),
        unitTests(
            of: "KeyboardLinkService",
            alsoUsing: [
                "KBlinkAPI", "KeyboardLinkBlueZ", "KeyboardLinkDBus", "KeyboardLinkDrivers", "KeyboardLinkFirmware",
                "KeyboardLinkKeymap", "KeyboardLinkPairing", "KeyboardLinkPresence", "KeyboardLinkSupport",
                "KeyboardLinkTestSupport",
            ]),
        unitTests(of: "KeyboardLinkSupport", alsoUsing: ["KeyboardLinkTestSupport"]),
        // The whole system: kblinkd-demo, kblink and the library together on private dbus-daemons, the repository's
        // files (policy, units, docs) and the package's own arrows.
        .testTarget(
            name: "KeyboardLinkIntegrationTests",
            dependencies: [
                "KBlinkAPI", "KeyboardLink", "KeyboardLinkClient", "KeyboardLinkDBus", "KeyboardLinkDoctor",
                "KeyboardLinkHostFix", "KeyboardLinkKeymap", "KeyboardLinkKeymapFiles", "KeyboardLinkService",
                "KeyboardLinkSimulator", "KeyboardLinkSupport", "KeyboardLinkTestSupport",
            ],
            path: "Tests/KeyboardLinkIntegrationTests",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
