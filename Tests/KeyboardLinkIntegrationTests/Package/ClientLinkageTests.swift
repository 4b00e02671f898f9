import Foundation
import KeyboardLinkTestSupport
import Testing

/// What the client links (docs/architecture.md, "Targets"): `kblink` holds none of the daemon's side (the
/// Authorizer, Presence's evdev reader, the pairing agent, the drivers, the service, the simulator) and does not need
/// libbluetooth. Read from the built binaries, so that a dependency added anywhere in the graph shows here.
@Suite struct ClientLinkageTests {
    /// The library targets that only the daemon's side may link.
    static let daemonSideModules: Set<String> = [
        "KeyboardLinkAuthorization", "KeyboardLinkPresence", "KeyboardLinkFirmware", "KeyboardLinkPairing",
        "KeyboardLinkDrivers", "KeyboardLinkService", "KeyboardLinkSimulator",
    ]

    @Test func kblinkHoldsNoSymbolOfTheDaemonSide() async throws {
        let client = try await Self.symbols(of: DaemonHarness.binary("kblink"))
        #expect(Self.modules(among: Self.daemonSideModules, in: client).isEmpty)
        for type in ["Authorizer", "EvdevMonitor", "SimulatedBlueZ"] {
            #expect(!client.contains("\(type.utf8.count)\(type)"), "kblink holds symbols of \(type)")
        }
        // The same reading finds what is there: the client's own modules in kblink, all of the daemon's side
        // and the named types in kblinkd-demo.
        #expect(Self.modules(among: ["KeyboardLinkClient", "KBlinkAPI"], in: client).count == 2)
        let demo = try await Self.symbols(of: DaemonHarness.binary("kblinkd-demo"))
        #expect(Self.modules(among: Self.daemonSideModules, in: demo) == Self.daemonSideModules)
        for type in ["Authorizer", "EvdevMonitor", "SimulatedBlueZ"] {
            #expect(demo.contains("\(type.utf8.count)\(type)"))
        }
    }

    @Test func kblinkDoesNotNeedLibbluetooth() async throws {
        #expect(
            try await !Self.neededLibraries(of: DaemonHarness.binary("kblink")).contains {
                $0.hasPrefix("libbluetooth")
            })
        #expect(
            try await Self.neededLibraries(of: DaemonHarness.binary("kblink")).contains { $0.hasPrefix("libdbus-1") })
        #expect(
            try await Self.neededLibraries(of: DaemonHarness.binary("kblinkd")).contains {
                $0.hasPrefix("libbluetooth")
            })
    }

    /// kblink-fix-host, which pkexec runs as root, links the host fixes and Support alone: no D-Bus, no Bluetooth.
    @Test func kblinkFixHostLinksOnlyTheHostFixes() async throws {
        let helper = DaemonHarness.binary("kblink-fix-host")
        let needed = try await Self.neededLibraries(of: helper)
        #expect(!needed.contains { $0.hasPrefix("libdbus-1") || $0.hasPrefix("libbluetooth") }, "\(needed)")
        let symbols = try await Self.symbols(of: helper)
        #expect(Self.modules(among: ["KeyboardLinkHostFix"], in: symbols).count == 1)
        #expect(
            Self.modules(
                among: Self.daemonSideModules.union(["KeyboardLinkDBus", "KBlinkAPI", "KeyboardLinkDoctor"]),
                in: symbols
            ).isEmpty)
    }

    /// `nm`'s listing of a binary's symbols.
    static func symbols(of binary: String) async throws -> String {
        let result = try await runProcess("/usr/bin/nm", [binary])
        try #require(result.status == 0, "nm \(binary) failed: \(result.standardError)")
        return result.standardOutput
    }

    /// The Swift modules among `names` that have symbols in an `nm` listing: a mangled Swift symbol names its module
    /// as its length and its name (`$s25KeyboardLinkAuthorization10AuthorizerC...`).
    static func modules(among names: Set<String>, in symbols: String) -> Set<String> {
        names.filter { symbols.contains("\($0.utf8.count)\($0)") }
    }

    /// The shared libraries a binary names as needed (`readelf -d`, its `NEEDED` entries).
    static func neededLibraries(of binary: String) async throws -> [String] {
        let result = try await runProcess("/usr/bin/readelf", ["-d", binary])
        try #require(result.status == 0, "readelf -d \(binary) failed: \(result.standardError)")
        return result.lines.filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }
}
