import KeyboardLinkKeymap
import KeyboardLinkSimulator
import Synchronization
import Testing

@testable import KeyboardLinkDrivers

/// `DriverPush` through the VIA driver, against a simulated keyboard on a socketpair.
@Suite("Push through the VIA driver")
struct VIADriverPushTests {
    static let layout = (try? PhysicalLayout.builtIn("vgn-98pro"))

    /// A keyboard sized for the VGN 98Pro layout's matrix, served on a socketpair.
    private func connect(faults: Set<SimulatedVIAKeyboard.Fault> = []) throws
        -> (SimulatedVIAKeyboardServer, VIADriver, VIASocketTransport, PhysicalLayout)
    {
        let layout = try #require(Self.layout)
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        let keyboard = try SimulatedVIAKeyboard(layers: 4, rows: rows, columns: columns, faults: faults)
        let (server, transport) = try SimulatedVIAKeyboardServer.start(keyboard)
        return (server, VIADriver(transport: transport), transport, layout)
    }

    private func position(_ layout: PhysicalLayout, _ key: String, layer: UInt8) throws -> VIAKeyPosition {
        let found = try #require(layout.keys.first { $0.name.rawValue == key })
        return VIAKeyPosition(layer: layer, row: UInt8(found.matrix.row), column: UInt8(found.matrix.column))
    }

    @Test("a push writes one report per changed binding far apart; a second push writes nothing")
    func roundTrip() async throws {
        let (server, driver, transport, layout) = try connect()
        defer { transport.close() }
        let identity = try await driver.identify()
        #expect(identity.capabilities.layers == 4 && identity.capabilities.runtimeMacros)
        var desired = try await driver.readKeymap(layout: layout).keymap()
        desired.setAction(try KeyAction(parsing: "KC_LCTL"), layer: 0, key: try KeyName("CAPS"))
        desired.setAction(try KeyAction(parsing: "KC_1"), layer: 2, key: try KeyName("KP_1"))
        let push = DriverPush(driver: driver, layout: layout)
        let before = server.keyboard.writeLog.count
        let outcome = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(outcome.writes.count == 2 && outcome.saved && outcome.verified)
        let keyboard = server.keyboard
        #expect(keyboard.writeLog.count - before == 2)
        // QMK keycodes: KC_LCTL is 0x00E0, KC_1 is 0x001E.
        #expect(keyboard.keymap.keycode(at: try position(layout, "CAPS", layer: 0)) == 0x00E0)
        #expect(keyboard.keymap.keycode(at: try position(layout, "KP_1", layer: 2)) == 0x001E)
        let again = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(again.writes.isEmpty)
        #expect(server.keyboard.writeLog.count - before == 2)
    }

    @Test("a write refused part-way is rolled back by rewriting the previous keycodes")
    func rollback() async throws {
        let (server, driver, transport, layout) = try connect(faults: [.failWrite(call: 3)])
        defer { transport.close() }
        let original = server.keyboard.keymap
        var desired = try await driver.readKeymap(layout: layout).keymap()
        // A whole matrix layer apart: one report each.
        for layer in 1...3 {
            desired.setAction(.none, layer: layer, key: try KeyName("ESC"))
        }
        do {
            _ = try await DriverPush(driver: driver, layout: layout).run(desired: desired, dryRun: false, verify: true)
            Issue.record("the push should have failed")
        } catch {
            #expect(error.written == 2)
            #expect(error.rolledBack)
            #expect(error.description.contains("rolled back"))
        }
        #expect(server.keyboard.keymap == original)
    }
}

/// Bulk keymap writes (`dynamic_keymap_set_buffer`) through the VIA driver.
@Suite("Bulk keymap writes through the VIA driver")
struct VIADriverBulkWriteTests {
    static func connect(faults: Set<SimulatedVIAKeyboard.Fault> = []) throws
        -> (SimulatedVIAKeyboardServer, VIADriver, VIASocketTransport, PhysicalLayout)
    {
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        let keyboard = try SimulatedVIAKeyboard(layers: 4, rows: rows, columns: columns, faults: faults)
        let (server, transport) = try SimulatedVIAKeyboardServer.start(keyboard)
        return (server, VIADriver(transport: transport), transport, layout)
    }

    /// The keys of matrix row 0, in column order.
    static func rowZero(_ layout: PhysicalLayout) -> [PhysicalKey] {
        layout.keys.filter { $0.matrix.row == 0 }.sorted { $0.matrix.column < $1.matrix.column }
    }

    @Test("a row of changed keys goes in set_buffer reports of 14 keycodes, progress counts bindings")
    func row() async throws {
        let (server, driver, transport, layout) = try Self.connect()
        defer { transport.close() }
        var desired = try await driver.readKeymap(layout: layout).keymap()
        let keys = Self.rowZero(layout)
        for key in keys { desired.setAction(.none, layer: 1, key: key.name) }
        let before = server.keyboard.writeLog.count
        let steps = Steps()
        let outcome = try await DriverPush(driver: driver, layout: layout).run(
            desired: desired, dryRun: false, verify: true, progress: { done, total in steps.add(done, total) })
        #expect(outcome.writes.count == keys.count && outcome.verified)
        let writes = Array(server.keyboard.writeLog.dropFirst(before))
        let span = (keys.last?.matrix.column ?? 0) - (keys.first?.matrix.column ?? 0) + 1
        // One report per 14 keycodes of the row's span, each a set_buffer unless a single keycode is left.
        #expect(writes.count == (span + 13) / 14)
        #expect(writes.count < keys.count)
        for key in keys {
            let position = VIAKeyPosition(layer: 1, row: 0, column: UInt8(key.matrix.column))
            #expect(server.keyboard.keymap.keycode(at: position) == 0x0000)
        }
        let seen = steps.values
        #expect(seen.first?.0 == 0 && seen.last?.0 == keys.count)
        #expect(seen.allSatisfy { $0.1 == keys.count })
        #expect(seen.count == writes.count + 1)
    }

    @Test("a set_buffer refused part-way: the reports before and the refused one are rolled back")
    func rollbackAfterBulk() async throws {
        let (server, driver, transport, layout) = try Self.connect(faults: [.failWrite(call: 2)])
        defer { transport.close() }
        let original = server.keyboard.keymap
        var desired = try await driver.readKeymap(layout: layout).keymap()
        for layer in 1...3 {
            for key in Self.rowZero(layout).prefix(5) { desired.setAction(.none, layer: layer, key: key.name) }
        }
        do {
            _ = try await DriverPush(driver: driver, layout: layout).run(desired: desired, dryRun: false, verify: true)
            Issue.record("the push should have failed")
        } catch {
            #expect(error.written == 5)
            #expect(error.rolledBack)
        }
        #expect(server.keyboard.keymap == original)
    }
}

/// Progress calls as a push reports them.
private final class Steps: Sendable {
    private let recorded = Mutex<[(Int, Int)]>([])

    var values: [(Int, Int)] { recorded.withLock { $0 } }

    func add(_ done: Int, _ total: Int) {
        recorded.withLock { $0.append((done, total)) }
    }
}
