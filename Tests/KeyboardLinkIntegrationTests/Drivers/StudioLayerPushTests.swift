import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Keymap.Push` to a simulated ZMK Studio keyboard with fewer layers than the draft binds keys on:
/// the push adds the layers the firmware has room for (`add_layer`) and refuses, by name, the bound layers it has
/// no room for.
@Suite("Push to a ZMK Studio keyboard with fewer layers")
struct StudioLayerPushTests {
    /// The `add_layer` requests the firmware received.
    private static func addLayerRequests(_ firmware: SimulatedStudioFirmware) -> Int {
        firmware.requestLog.count {
            if case .keymap(.addLayer) = $0.subsystem { return true }
            return false
        }
    }

    @Test("2 layers with 4 available, a key bound on layer 2: the push adds a layer, writes it, a pull sees 3")
    func addsLayer() async throws {
        try await StudioPushFixture.run(layerCount: 2, availableLayers: 4) { fixture, keymap in
            let original = await fixture.keyboard.firmware.savedKeymap
            // The draft has the keyboard's 2 layers (read into the base): the user adds one.
            try await keymap.addLayer(2)
            try await keymap.setBinding(layer: 2, key: "A", action: "KC_B")

            let dryRun = try await keymap.push(dryRun: true)
            #expect(dryRun.layersAdded == 1 && dryRun.problems.isEmpty)
            #expect(dryRun.changes.map { "\($0.layer) \($0.key) \($0.old)->\($0.new)" } == ["2 A (layer to add)->KC_B"])
            #expect(Self.addLayerRequests(await fixture.keyboard.firmware) == 0)
            #expect(await fixture.keyboard.firmware.activeKeymap.count == 2)

            let result = try await keymap.push()
            #expect(result.layersAdded == 1)
            #expect(result.saved && result.verified)
            // The added layer is transparent: only A differs from what it holds.
            #expect(result.written == 1)
            #expect(result.changes.map { "\($0.layer) \($0.key) \($0.old)->\($0.new)" } == ["2 A KC_TRNS->KC_B"])
            let firmware = await fixture.keyboard.firmware
            #expect(Self.addLayerRequests(firmware) == 1)
            #expect(!firmware.hasUnsavedChanges)
            #expect(firmware.savedKeymap.count == 3)
            let a = try fixture.position("A")
            #expect(firmware.savedKeymap[2][a] == (await fixture.keyPress(usage: 0x05)))
            #expect(Array(firmware.savedKeymap.prefix(2)) == original)
            #expect(!(try await keymap.state().dirty))

            let pull = try await keymap.pull()
            #expect(pull.deviceLayers == 3)
            #expect(pull.changed == 0)
            let again = try await keymap.push()
            #expect(again.written == 0 && again.layersAdded == 0)
            #expect(Self.addLayerRequests(await fixture.keyboard.firmware) == 1)
        }
    }

    @Test("2 layers and no room to add: the push refuses naming the bound layer, and changes nothing")
    func noRoom() async throws {
        try await StudioPushFixture.run(layerCount: 2) { fixture, keymap in
            let original = await fixture.keyboard.firmware.savedKeymap
            // The draft has the keyboard's 2 layers (read into the base): the user adds one.
            try await keymap.addLayer(2)
            try await keymap.setBinding(layer: 2, key: "A", action: "KC_B")
            await KeymapFixture.expectError(
                .notSupported, containing: ["holds 2 layer(s)", "layer 2 (A)", "kblink keymap layer remove"]
            ) {
                _ = try await keymap.push()
            }
            let firmware = await fixture.keyboard.firmware
            #expect(Self.addLayerRequests(firmware) == 0)
            #expect(firmware.savedKeymap == original && firmware.activeKeymap == original)
            #expect(!firmware.hasUnsavedChanges)
            #expect(try await keymap.state().dirty)
        }
    }

    @Test("room for one more layer, keys bound on layers 2 and 3: only layer 3 is named, nothing is added")
    func partialRoom() async throws {
        try await StudioPushFixture.run(layerCount: 2, availableLayers: 1) { fixture, keymap in
            // The draft has the keyboard's 2 layers (read into the base): the user adds two.
            try await keymap.addLayer(2)
            try await keymap.addLayer(3)
            try await keymap.setBinding(layer: 2, key: "A", action: "KC_B")
            try await keymap.setBinding(layer: 3, key: "Q", action: "KC_1")
            do {
                _ = try await keymap.push()
                Issue.record("the push should have been refused")
            } catch let error as KBlinkError {
                #expect(error.code == .notSupported)
                #expect(error.message.contains("can add 1 more"), "\(error.message)")
                #expect(error.message.contains("layer 3 (Q)"), "\(error.message)")
                #expect(!error.message.contains("layer 2 ("), "\(error.message)")
            }
            let firmware = await fixture.keyboard.firmware
            #expect(Self.addLayerRequests(firmware) == 0)
            #expect(firmware.savedKeymap.count == 2 && firmware.activeKeymap.count == 2)
        }
    }
}
