import Testing

@testable import KeyboardLink

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

    @Test("a push writes one keycode per changed binding; a second push writes nothing")
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
        for key in ["ESC", "F1", "F2", "F3"] {
            desired.setAction(.none, layer: 1, key: try KeyName(key))
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
