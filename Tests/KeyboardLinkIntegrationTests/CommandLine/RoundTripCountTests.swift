import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// What `kblink keymap set` costs on the bus, counted by `busctl monitor` (sd-bus, as a monitor of the demo's private
/// bus): one call to kblinkd per edit, and one `PropertiesChanged` per edit.
@Suite("one round trip per edit")
struct RoundTripCountTests {
    @Test("kblink keymap set makes one call to org.kblink1, with an address or with a name")
    func setIsOneCall() async throws {
        try await DemoDaemon.run { demo in
            let address = try await Self.aulaAddress(demo)
            let monitor = try await BusMonitor(demo.address)
            defer { monitor.stop() }

            _ = try await demo.ok(["keymap", "set", address, "CAPS", "KC_LCTL"])
            let byAddress = try await monitor.messagesUntilNow()
            #expect(
                Self.callsToKBlink(byAddress) == ["org.kblink1.Manager.SetKeyboardBinding"],
                "\(monitor.standardError)")

            _ = try await demo.ok(["keymap", "set", "aula", "ESC", "KC_GRV"])
            let byName = try await monitor.messagesUntilNow()
            #expect(Self.callsToKBlink(byName) == ["org.kblink1.Manager.SetKeyboardBinding"])
        }
    }

    @Test("one SetBinding publishes one PropertiesChanged of org.kblink1.Keymap, with every property it changed")
    func oneEditOneSignal() async throws {
        try await DemoDaemon.run { demo in
            let address = try await Self.aulaAddress(demo)
            let monitor = try await BusMonitor(demo.address)
            defer { monitor.stop() }

            _ = try await demo.ok(["keymap", "set", address, "CAPS", "KC_LCTL"])
            let messages = try await monitor.messagesUntilNow()
            let changes = messages.filter {
                $0["member"] as? String == "PropertiesChanged"
                    && (($0["payload"] as? [String: Any])?["data"] as? [Any])?.first as? String
                        == "org.kblink1.Keymap"
            }
            #expect(changes.count == 1, "\(changes)")
            // The first edit of a clean draft changes CanUndo and Dirty: both in that one signal.
            let changed = ((changes.first?["payload"] as? [String: Any])?["data"] as? [Any])?.dropFirst().first
            let names = (changed as? [String: Any]).map { Set($0.keys) } ?? []
            #expect(names.isSuperset(of: ["CanUndo", "Dirty"]), "\(names)")
        }
    }

    /// The method calls addressed to `org.kblink1`, as `interface.member`, in order.
    static func callsToKBlink(_ messages: [[String: Any]]) -> [String] {
        messages.filter { $0["type"] as? String == "method_call" && $0["destination"] as? String == "org.kblink1" }
            .map { "\($0["interface"] as? String ?? "").\($0["member"] as? String ?? "")" }
    }

    /// The Aula F87's address, from `kblink list --json`.
    static func aulaAddress(_ demo: DemoDaemon) async throws -> String {
        let list = try #require(try DemoDaemon.json(try await demo.ok(["list", "--json"])) as? [[String: Any]])
        return try #require(
            list.first { "\($0["alias"] ?? "") \($0["name"] ?? "")".contains("Aula") }?["address"] as? String,
            "\(list)")
    }
}

/// `busctl monitor --json=short` on a bus: every message on it, one JSON object a line. A marker call (a
/// `NameHasOwner` of a name nobody owns, unique per marker) tells when the monitor has seen everything sent before.
final class BusMonitor: Sendable {
    private let busAddress: String
    private let process: ToolProcess
    private let consumed = Mutex(0)
    private let markers = Mutex(0)

    /// Starts the monitor and waits until it sees messages.
    init(_ busAddress: String) async throws {
        self.busAddress = busAddress
        process = try ToolProcess("/usr/bin/busctl", ["--address=\(busAddress)", "monitor", "--json=short"])
        _ = try await messagesUntilNow()
    }

    /// What the monitor printed on standard error.
    var standardError: String { process.standardError }

    /// The messages seen since the last call (or since the monitor started), up to a marker sent now.
    func messagesUntilNow() async throws -> [[String: Any]] {
        let marker = markers.withLock { count in
            count += 1
            return "kblink.test.marker\(count)"
        }
        let process = self.process
        let busAddress = self.busAddress
        let found = await eventually(
            "busctl monitor seeing \(marker)",
            {
                _ = try? await ToolProcess.outcome(
                    "/usr/bin/busctl",
                    [
                        "--address=\(busAddress)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                        "org.freedesktop.DBus", "NameHasOwner", "s", marker,
                    ])
                return process.lines.lastIndex { $0.contains(marker) && $0.contains("\"method_call\"") }
            }, satisfies: { $0 != nil })
        guard let end = found ?? nil else {
            throw ToolProcess.Failure(description: "busctl monitor did not see \(marker): \(process.standardError)")
        }
        let lines = process.lines
        let upTo = min(end, lines.count)
        let start = consumed.withLock { start in
            defer { start = upTo + 1 }
            return start
        }
        return lines[min(start, upTo)..<upTo].compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Stops the monitor.
    func stop() {
        process.kill()
    }
}
