import Foundation
import KeyboardLink
import Testing

/// `org.kblink1.Keymap.Pull` from a VIA keyboard: the VGN 98Pro (connected), reached through a socketpair to a
/// simulated VIA keyboard, changed behind the daemon's back by another VIA client on the same link.
@Suite("Pull from a VIA keyboard")
struct VIAPullTests {
    /// `text 'Hi', delay 30, enter`, hand-written from docs/protocols.md: "Hi", `01 04 "30|"`, tap ENTER (0x28).
    static let signatureBytes: [UInt8] = [0x48, 0x69, 0x01, 0x04, 0x33, 0x30, 0x7C, 0x01, 0x01, 0x28]
    /// `text 'OK'`: plain characters.
    static let okBytes: [UInt8] = [0x4F, 0x4B]

    /// Runs `body` with the daemon's VGN 98Pro linked to a simulated VIA keyboard on a socketpair, and a second
    /// VIA client on the same link standing for another tool.
    static func withVIAKeyboard(
        _ body: (KeymapClient, SimulatedVIAKeyboardServer, VIAClient, PhysicalLayout) async throws -> Void
    ) async throws {
        try await VIADaemonFixture.run { _, keymap, server, transport, layout in
            try await body(keymap, server, VIAClient(transport: transport), layout)
        }
    }

    static func position(_ layout: PhysicalLayout, _ key: String, layer: UInt8) throws -> VIAKeyPosition {
        let found = try #require(layout.keys.first { $0.name.rawValue == key })
        return VIAKeyPosition(layer: layer, row: UInt8(found.matrix.row), column: UInt8(found.matrix.column))
    }

    @Test("pull after changes behind the daemon's back: the draft equals the keyboard, a push then writes nothing")
    func pullsChanges() async throws {
        try await Self.withVIAKeyboard { keymap, server, other, layout in
            try await keymap.setMacro(name: "sig", definition: "text 'Hi', delay 30, enter")
            try await keymap.setBinding(layer: 0, key: "F5", action: "MACRO(sig)")
            let pushed = try await keymap.push()
            #expect(pushed.saved && pushed.verified)
            #expect(try await keymap.state().dirty == false)

            // Another VIA tool: CAPS to Left Ctrl, F6 plays slot 0 (sig), F7 plays a new slot 1 ("OK"), Q on
            // layer 1 types 1.
            _ = try await other.writeKeycodes([
                VIAKeycodeChange(position: try Self.position(layout, "CAPS", layer: 0), keycode: 0x00E0),
                VIAKeycodeChange(position: try Self.position(layout, "F6", layer: 0), keycode: 0x7700),
                VIAKeycodeChange(position: try Self.position(layout, "F7", layer: 0), keycode: 0x7701),
                VIAKeycodeChange(position: try Self.position(layout, "Q", layer: 1), keycode: 0x001E),
            ])
            let buffer = try await other.readMacroBuffer()
            try await other.writeMacroBuffer(Self.signatureBytes + [0] + Self.okBytes + [0], replacing: buffer)

            let result = try await keymap.pull()
            #expect(result.driver == "via")
            #expect(result.changed == 4)
            #expect(result.layers == 4 && result.deviceLayers == 4)
            #expect(result.bindings == 4 * layout.keys.count)
            #expect(result.macros == 2)
            #expect(result.unknown == 0)

            // What the keyboard holds is the base now (with the macro it plays in a new slot): the draft equals it.
            #expect(try await keymap.diff().isEmpty)
            let bindings = try await keymap.bindings(zone: "function", layer: 0)
            #expect(bindings.first { $0.key == "F7" }?.action == "MACRO(M1)")
            #expect(bindings.first { $0.key == "F6" }?.action == "MACRO(sig)")
            let macros = try await keymap.macros()
            #expect(Set(macros.keys) == ["sig", "M1"])
            #expect(macros["M1"] == "text 'OK'")
            let state = try await keymap.state()
            #expect(!state.dirty && state.baseOrigin == "keyboard")

            // The draft is what the keyboard holds: a push writes nothing.
            let writes = server.keyboard.writeLog.count
            let again = try await keymap.push()
            #expect(again.written == 0 && again.changes.isEmpty)
            #expect(server.keyboard.writeLog.count == writes)
            // That push made the pulled keymap the base.
            #expect(try await keymap.diff().isEmpty)
        }
    }

    @Test("one undo takes a pull back; redo stages it again; a pull that finds the draft writes no edit")
    func undoRestores() async throws {
        try await Self.withVIAKeyboard { keymap, server, _, _ in
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            let before = try await keymap.exportProfile()
            let first = try await keymap.pull()
            // The keyboard's keymap was read into the base already: only the draft's edit differs from it.
            #expect(first.changed == 1)
            let pulled = try await keymap.exportProfile()
            #expect(pulled != before)
            try await keymap.undo()
            #expect(try await keymap.exportProfile() == before)
            let state = try await keymap.state()
            #expect(state.canUndo && state.canRedo)
            try await keymap.redo()
            #expect(try await keymap.exportProfile() == pulled)

            // Nothing changed on the keyboard: a second pull finds nothing to change and records no edit.
            let second = try await keymap.pull()
            #expect(second.changed == 0)
            try await keymap.undo()
            #expect(try await keymap.exportProfile() == before)
            // Pulling reads only.
            #expect(server.keyboard.writeLog.isEmpty)
        }
    }
}
