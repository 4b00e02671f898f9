import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Manager.SetKeyboardBinding`: `Keymap.SetBinding` on the keyboard a `device` argument names, so that an
/// edit by name is one call.
@Suite("Manager.SetKeyboardBinding edits the keyboard its device argument names")
struct SetKeyboardBindingTests {
    @Test("by name or address: the binding lands on that keyboard alone, answered with the keyboard and as stored")
    func editsTheNamedKeyboard() async throws {
        try await withDaemon(devices: [.aulaF87, .vgn98Pro]) { harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let byName = try await client.setBinding(onKeyboard: "vgn", layer: 1, key: "ent", action: "lctrl")
            #expect(byName.address == KeymapFixture.vgn.description)
            #expect(byName.alias == "VGN 98Pro")
            #expect(
                byName.stored
                    == StoredBinding(
                        zone: "standard", layer: 1, key: "ENTER", action: "KC_LCTL", firmwareChecked: true,
                        firmwareProblem: ""))
            let byAddress = try await client.setBinding(
                onKeyboard: KeymapFixture.aula.description.lowercased(), layer: 0, key: "CAPS", action: "KC_ESC")
            #expect(byAddress.address == KeymapFixture.aula.description)
            #expect(byAddress.stored.key == "CAPS" && byAddress.stored.action == "KC_ESC")

            try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { keymap in
                let dirty = try await keymap.state().dirty
                #expect(dirty)
                let rows = try await keymap.bindings(zone: "standard", layer: 1)
                #expect(rows.first { $0.key == "ENTER" }?.action == "KC_LCTL")
                let diff = try await keymap.diff()
                #expect(diff.map(\.key) == ["ENTER"], "\(diff)")
            }
            try await KeymapFixture.withKeymap(harness) { keymap in
                let diff = try await keymap.diff()
                #expect(diff.map(\.key) == ["CAPS"], "\(diff)")
            }
        }
    }

    @Test("a name several keyboards start with, an unknown name, and an unpaired keyboard are refused, saying why")
    func refusals() async throws {
        var unpaired = KeymapFixture.keyboard("Keychron K3", address: "AA:BB:CC:00:00:03")
        unpaired.paired = false
        unpaired.trusted = false
        unpaired.connected = false
        let devices = [
            SimulatedDevice.aulaF87, KeymapFixture.keyboard("Aula F75", address: "AA:BB:CC:00:00:75"), unpaired,
        ]
        try await withDaemon(devices: devices) { harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            await KeymapFixture.expectError(.invalidArgs, containing: ["F8:70:00:00:00:87", "AA:BB:CC:00:00:75"]) {
                try await client.setBinding(onKeyboard: "aula", layer: 0, key: "CAPS", action: "KC_LCTL")
            }
            await KeymapFixture.expectError(.notFound, containing: ["no keyboard is called \"Model M\""]) {
                try await client.setBinding(onKeyboard: "Model M", layer: 0, key: "CAPS", action: "KC_LCTL")
            }
            await KeymapFixture.expectError(.notFound, containing: ["no keyboard 11:22:33:44:55:66 is known"]) {
                try await client.setBinding(onKeyboard: "11:22:33:44:55:66", layer: 0, key: "CAPS", action: "KC_LCTL")
            }
            await KeymapFixture.expectError(
                .notSupported,
                containing: ["Keychron K3 has no keymap: it is not paired", "kblink pair AA:BB:CC:00:00:03"]
            ) {
                try await client.setBinding(onKeyboard: "keychron", layer: 0, key: "CAPS", action: "KC_LCTL")
            }
            await KeymapFixture.expectError(.invalidArgs, containing: ["at most 248 bytes"]) {
                try await client.setBinding(
                    onKeyboard: String(repeating: "a", count: 300), layer: 0, key: "CAPS", action: "KC_LCTL")
            }
            // The keyboard is found, then the key is checked as SetBinding checks it.
            await KeymapFixture.expectError(.invalidArgs, containing: ["NOSUCHKEY"]) {
                try await client.setBinding(onKeyboard: "aula f87", layer: 0, key: "NOSUCHKEY", action: "KC_LCTL")
            }
            try await KeymapFixture.withKeymap(harness) { keymap in
                let dirty = try await keymap.state().dirty
                #expect(!dirty, "a refused edit changed the draft")
            }
        }
    }
}
