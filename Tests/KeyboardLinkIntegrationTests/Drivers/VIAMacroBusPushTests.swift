import Foundation
import KeyboardLink
import Testing

/// `org.kblink1.Keymap.Push` with macros to a VIA keyboard: the VGN 98Pro (connected), reached through a socketpair
/// to a simulated VIA keyboard instead of its hidraw node.
@Suite("Push macros to a VIA keyboard over D-Bus")
struct VIAMacroBusPushTests {
    /// `text 'Hi', delay 30, enter`, hand-written from docs/protocols.md: "Hi", `01 04 "30|"`, tap ENTER (0x28).
    static let signatureBytes: [UInt8] = [0x48, 0x69, 0x01, 0x04, 0x33, 0x30, 0x7C, 0x01, 0x01, 0x28]

    /// Runs `body` with the daemon's VGN 98Pro linked to `keyboard` on a socketpair.
    static func withVIAKeyboard(
        _ keyboard: (Int, Int) throws -> SimulatedVIAKeyboard,
        _ body: (DaemonHarness, KeymapClient, SimulatedVIAKeyboardServer, PhysicalLayout) async throws -> Void
    ) async throws {
        try await VIADaemonFixture.run(keyboard: keyboard) { harness, keymap, server, _, layout in
            try await body(harness, keymap, server, layout)
        }
    }

    static func position(_ layout: PhysicalLayout, _ key: String, layer: UInt8) throws -> VIAKeyPosition {
        let found = try #require(layout.keys.first { $0.name.rawValue == key })
        return VIAKeyPosition(layer: layer, row: UInt8(found.matrix.row), column: UInt8(found.matrix.column))
    }

    @Test("a bound macro is written to the macro buffer and its key plays slot 0; a second push writes nothing")
    func pushesMacro() async throws {
        try await Self.withVIAKeyboard({ try SimulatedVIAKeyboard(layers: 4, rows: $0, columns: $1) }) {
            _, keymap, server, layout in
            try await keymap.setMacro(name: "sig", definition: "text 'Hi', delay 30, enter")
            try await keymap.setBinding(layer: 0, key: "F5", action: "MACRO(sig)")
            let result = try await keymap.push()
            #expect(result.saved && result.verified)
            #expect(result.macroSlots == 1)
            #expect(result.changes.contains { $0.key == "F5" && $0.new == "MACRO(sig)" })
            let keyboard = server.keyboard
            #expect(Array(keyboard.macroBuffer.prefix(11)) == Self.signatureBytes + [0x00])
            #expect(keyboard.playableMacro(0) == Self.signatureBytes)
            #expect(keyboard.keymap.keycode(at: try Self.position(layout, "F5", layer: 0)) == 0x7700)
            #expect(try await keymap.state().dirty == false)
            let writes = keyboard.writeLog.count
            let again = try await keymap.push()
            #expect(again.written == 0 && again.macroSlots == 0)
            #expect(server.keyboard.writeLog.count == writes)
        }
    }

    @Test("a macro that does not fit the buffer: NotSupported saying what to do, keyboard unchanged, draft kept")
    func macroDoesNotFit() async throws {
        try await Self.withVIAKeyboard({
            try SimulatedVIAKeyboard(layers: 4, rows: $0, columns: $1, macroBufferSize: 8)
        }) { _, keymap, server, _ in
            let before = server.keyboard
            try await keymap.setMacro(name: "sig", definition: "text 'Hi', delay 30, enter")
            try await keymap.setBinding(layer: 0, key: "F5", action: "MACRO(sig)")
            await KeymapFixture.expectError(
                .notSupported,
                containing: ["sig (11 bytes)", "holds 8", "shorten", "unbind", "the draft is kept"]
            ) {
                _ = try await keymap.push()
            }
            let after = server.keyboard
            #expect(after.writeLog.isEmpty)
            #expect(after.macroBuffer == before.macroBuffer)
            #expect(after.keymap.bufferBytes == before.keymap.bufferBytes)
            #expect(try await keymap.state().dirty)
            #expect(try await keymap.diff().contains { $0.key == "F5" })
        }
    }
}
