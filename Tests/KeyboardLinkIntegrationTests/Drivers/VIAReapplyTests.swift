import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Apply on connect with a simulated VIA keyboard (the VGN 98Pro on a socketpair): a keycode changed behind the
/// daemon's back (another VIA client on the same link) is written back when the keyboard reconnects.
@Suite("Re-apply on connect: VIA")
struct VIAReapplyTests {
    static let address = SimulatedDevice.vgn98Pro.address

    /// The daemon with the VGN 98Pro connected, its VIA link a socketpair to a simulated keyboard.
    static func run(
        _ body: (ReapplyDaemon, KeymapClient, SimulatedVIAKeyboardServer, VIAClient, PhysicalLayout) async throws
            -> Void
    ) async throws {
        let (device, layout, server, transport) = try VIADaemonFixture.connectedVGN98Pro {
            try SimulatedVIAKeyboard(layers: 4, rows: $0, columns: $1)
        }
        defer { transport.close() }
        let address = Self.address
        let links = VIADriverLinks { wanted in wanted.address == address ? .init(transport: transport, close: {}) : nil
        }
        try await withReapplyDaemon(devices: [device], viaLinks: links, keymapOf: address) { daemon, keymap in
            try await body(daemon, keymap, server, VIAClient(transport: transport), layout)
        }
    }

    static func position(_ key: String, layer: Int, _ layout: PhysicalLayout) throws -> VIAKeyPosition {
        let physical = try #require(layout.keys.first { $0.name.rawValue == key })
        return VIAKeyPosition(
            layer: UInt8(layer), row: UInt8(physical.matrix.row), column: UInt8(physical.matrix.column))
    }

    @Test("apply on connect: keycodes changed behind the daemon's back are written back at reconnect, only those")
    func driftIsReapplied() async throws {
        try await Self.run { daemon, keymap, server, other, layout in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let pushed = try await keymap.push(applyOnConnect: true)
            // Only the edited key: the rest of the keyboard's own keymap stays.
            #expect(pushed.written == 1 && pushed.verified)
            let onKeyboard = server.keyboard.keymap
            let caps = try Self.position("CAPS", layer: 0, layout)
            let a = try Self.position("A", layer: 0, layout)
            let q = try Self.position("Q", layer: 1, layout)
            #expect(onKeyboard.keycode(at: caps) == 0x00E0)
            // The drift, while the keyboard is away: CAPS back to Caps Lock, A to B, Q on layer 1 to 1.
            let writesBefore = server.keyboard.writeLog.count + 3
            try await daemon.reconnect(Self.address) {
                _ = try await other.writeKeycodes([
                    VIAKeycodeChange(position: caps, keycode: 0x0039), VIAKeycodeChange(position: a, keycode: 0x0005),
                    VIAKeycodeChange(position: q, keycode: 0x001E),
                ])
            }
            #expect(await daemon.waitForLog("re-applied the profile: 3 binding(s) had drifted") == .notice)
            #expect(daemon.logCount("layer 0 CAPS KC_CAPS->KC_LCTL") == 1)
            let keyboard = server.keyboard
            #expect(keyboard.keymap == onKeyboard)
            // CAPS and A are neighbours in the matrix: one set_buffer for both, then Q on layer 1.
            #expect(keyboard.keymap.index(of: a) == keyboard.keymap.index(of: caps) + 1)
            let ownersA = try #require(onKeyboard.keycode(at: a))
            let buffer: [UInt8] = [0x00, 0xE0, UInt8(ownersA >> 8), UInt8(ownersA & 0xFF)]
            let expected: [SimulatedVIAKeyboard.Write] = [
                .keymapBuffer(offset: keyboard.keymap.index(of: caps) * 2, bytes: buffer), .keycode(q, 0x0001),
            ]
            #expect(Array(keyboard.writeLog.dropFirst(writesBefore)) == expected)
        }
    }

    @Test("apply on connect with no drift writes nothing; with the flag off a drift stays")
    func noDriftThenOff() async throws {
        try await Self.run { daemon, keymap, server, other, layout in
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            _ = try await keymap.push(applyOnConnect: true)
            let writes = server.keyboard.writeLog.count
            try await daemon.reconnect(Self.address)
            #expect(await daemon.waitForLog("holds its profile; nothing to re-apply") == .debug)
            #expect(server.keyboard.writeLog.count == writes)

            try await keymap.setApplyOnConnect(false)
            let esc = try Self.position("ESC", layer: 0, layout)
            try await daemon.reconnect(Self.address) {
                _ = try await other.writeKeycodes([VIAKeycodeChange(position: esc, keycode: 0x0029)])
            }
            // The first "off" was the connection at start.
            #expect(await daemon.waitForLog("apply on connect is off", occurrence: 2) == .debug)
            #expect(server.keyboard.keymap.keycode(at: esc) == 0x0029)
            #expect(server.keyboard.writeLog.count == writes + 1)
            #expect(daemon.logCount("re-applied") == 0)
        }
    }

    @Test("a layout added for the keyboard keeps its apply-on-connect choice, inert until the next push")
    func addedLayoutKeepsApplyOnConnect() async throws {
        try await Self.run { daemon, keymap, server, _, _ in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            _ = try await keymap.push(applyOnConnect: true)
            #expect(try await keymap.applyOnConnect())

            // AddLayout needs edit-keymap only; turning apply on connect off needs write-firmware.
            let definition = try VIADefinition(
                json: Array(VIADefinitionFixtureText.oneUp60HSE(vendorID: "0x05AC", productID: "0x0256").utf8))
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            defer { Task { await client.close() } }
            let applied = try await client.manager.call(
                KBlinkContract.Manager.addLayout,
                KeyboardLayoutDefinition(
                    layout: definition.layout, vendorID: definition.vendorID, productID: definition.productID,
                    matrixRows: UInt16(definition.matrixRows), matrixColumns: UInt16(definition.matrixColumns),
                    source: "VIA v3 definition"))
            #expect(applied.map(\.outcome) == [LayoutApplication.applied])
            #expect(try await keymap.state().layout == "1up60hse")
            #expect(try await keymap.applyOnConnect(), "the layout switch turned apply on connect off")

            // Its base is kblink's default for the new layout, not what the keyboard holds: nothing is re-applied
            // until a push puts a base there. (This definition's matrix is not the simulated keyboard's, so a push
            // here would be refused by its read-back.)
            let writes = server.keyboard.writeLog.count
            try await daemon.reconnect(Self.address)
            #expect(await daemon.waitForLog("on, but no keymap was pushed yet") == .debug)
            #expect(server.keyboard.writeLog.count == writes)
        }
    }

    @Test("ApplyOnConnect cannot be turned on before a push: there is no pushed keymap to re-apply")
    func needsAPush() async throws {
        try await Self.run { _, keymap, server, _, _ in
            await KeymapFixture.expectError(.failed, containing: ["push first", "--apply-on-connect"]) {
                try await keymap.setApplyOnConnect(true)
            }
            let enabled = try await keymap.applyOnConnect()
            #expect(!enabled)
            #expect(server.keyboard.writeLog.isEmpty)
            await KeymapFixture.expectError(.invalidArgs, containing: ["dry-run"]) {
                _ = try await keymap.push(dryRun: true, applyOnConnect: true)
            }
        }
    }
}
