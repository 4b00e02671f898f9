import Foundation
import KeyboardLink
import Testing

/// `org.kblink1.Keymap.Push` to a VIA keyboard: the VGN 98Pro (connected), reached through a socketpair to a
/// simulated VIA keyboard instead of its hidraw node.
@Suite("Push to a VIA keyboard")
struct VIAPushTests {
    @Test("a push writes the edited keycodes over VIA and a second push writes nothing")
    func pushOverVIA() async throws {
        try await VIADaemonFixture.run { harness, keymap, server, _, layout in
            let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
            let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
            let address = SimulatedDevice.vgn98Pro.address
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let result = try await keymap.push()
            #expect(result.driver == "via")
            #expect(result.saved && result.verified)
            // The simulated keyboard's keymap is not kblink's default for the layout (no layer-0 key holds what its
            // cap says), and was read into the base: the push writes the one edited key, in one report.
            let caps = try #require(layout.keys.first { $0.name.rawValue == "CAPS" })
            let position = VIAKeyPosition(
                layer: 0, row: UInt8(caps.matrix.row), column: UInt8(caps.matrix.column))
            #expect(server.keyboard.keymap.keycode(at: position) == 0x00E0)
            #expect(result.written == 1 && result.changes.map(\.key) == ["CAPS"])
            let writes = server.keyboard.writeLog.count
            #expect(writes == 1)
            _ = (rows, columns)
            let again = try await keymap.push()
            #expect(again.written == 0)
            #expect(server.keyboard.writeLog.count == writes)
            let client = try await harness.client()
            let keyboard = try await client.keyboards().first { $0.address == address.description }
            #expect(keyboard?.driver == "via")
            // VIA's versions join the Firmware property: the simulator speaks protocol 0x000B, firmware
            // 0x00010203 (SimulatedVIAKeyboard's defaults).
            #expect(keyboard?.firmware["VIAProtocolVersion"] == "0x000b")
            #expect(keyboard?.firmware["VIAFirmwareVersion"] == "0x00010203")
            await client.close()
        }
    }
}
