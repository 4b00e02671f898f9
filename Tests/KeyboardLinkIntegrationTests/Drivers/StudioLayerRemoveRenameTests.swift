import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A push to a simulated ZMK Studio keyboard removes the layers the draft no longer has (`remove_layer`) and
/// writes the names the user gave (`set_layer_props`); a pull reads the names back.
@Suite("Push to a ZMK Studio keyboard: removed layers and layer names")
struct StudioLayerRemoveRenameTests {
    private static func count(_ firmware: SimulatedStudioFirmware, _ match: (StudioKeymapRequest) -> Bool) -> Int {
        firmware.requestLog.count {
            if case .keymap(let request) = $0.subsystem { return match(request) }
            return false
        }
    }

    @Test("a push with fewer layers than the keyboard removes the extra ones; the next push removes nothing")
    func removesLayers() async throws {
        try await StudioPushFixture.run(layerCount: 4) { fixture, keymap in
            try await keymap.setBinding(layer: 3, key: "A", action: "KC_B")
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "MO(3)")
            // Layer 2 goes: layer 3 becomes 2, and CAPS follows it.
            try await keymap.removeLayer(2)
            #expect(try await keymap.state().layers == 3)
            // Layer 3's name ("Layer 3") moved down with it: layer 2 on the keyboard is renamed.
            let dryRun = try await keymap.push(dryRun: true)
            #expect(dryRun.layersRemoved == 1 && dryRun.layersRenamed == 1)
            let result = try await keymap.push()
            #expect(result.saved && result.verified)
            #expect(result.layersRemoved == 1 && result.layersRenamed == 1)
            let firmware = await fixture.keyboard.firmware
            #expect(Self.count(firmware) { if case .removeLayer = $0 { true } else { false } } == 1)
            #expect(firmware.savedKeymap.count == 3)
            let a = try fixture.position("A")
            #expect(firmware.savedKeymap[2][a] == (await fixture.keyPress(usage: 0x05)))
            let caps = try fixture.position("CAPS")
            let momentary = try #require(firmware.behaviorID(named: "Momentary Layer"))
            #expect(firmware.savedKeymap[0][caps] == StudioBehaviorBinding(behaviorID: Int32(momentary), param1: 2))
            #expect(!(try await keymap.state().dirty))
            let pull = try await keymap.pull()
            #expect(pull.deviceLayers == 3 && pull.changed == 0)
            let again = try await keymap.push()
            #expect(again.written == 0 && again.layersRemoved == 0)
            #expect(
                Self.count(await fixture.keyboard.firmware) { if case .removeLayer = $0 { true } else { false } } == 1)
        }
    }

    @Test("a renamed layer is written with set_layer_props and reads back with its name after pull")
    func renames() async throws {
        try await StudioPushFixture.run(layerCount: 3) { fixture, keymap in
            // The keyboard's own names were read into the base.
            #expect(try await keymap.state().layerNames == ["Base", "Layer 1", "Layer 2"])
            try await keymap.renameLayer(2, to: "Symbols")
            let result = try await keymap.push()
            #expect(result.saved && result.verified)
            #expect(result.layersRenamed == 1 && result.layersRemoved == 0 && result.written == 0)
            let firmware = await fixture.keyboard.firmware
            #expect(Self.count(firmware) { if case .setLayerProps = $0 { true } else { false } } == 1)
            #expect(firmware.activeLayerNames[2] == "Symbols")
            #expect(!(try await keymap.state().dirty))
            // Another tool renames it on the keyboard; the pull reads the name back.
            try await keymap.renameLayer(2, to: "Scratch")
            _ = try await keymap.pull()
            #expect(try await keymap.state().layerNames == ["Base", "Layer 1", "Symbols"])
        }
    }
}
