import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

/// `remove_layer`, `restore_layer`, `move_layer` and `set_layer_props` on the simulated ZMK Studio firmware, with
/// ZMK's quirks, and their wire encoding (ZMK's `keymap.proto`, fields 8, 10, 11, 12).
@Suite("Simulated ZMK Studio firmware: layer requests")
struct SimulatedStudioLayerEditTests {
    private func answer(_ firmware: inout SimulatedStudioFirmware, _ subsystem: StudioRequest.Subsystem)
        -> StudioRequestResponse.Payload?
    {
        guard
            case .requestResponse(let answer) = firmware.handle(StudioRequest(requestID: 1, subsystem: subsystem)).last
        else { return nil }
        return answer.payload
    }

    private func keymap(_ firmware: inout SimulatedStudioFirmware) -> StudioKeymap? {
        guard case .keymap(.keymap(let keymap)) = answer(&firmware, .keymap(.getKeymap)) else { return nil }
        return keymap
    }

    @Test("remove_layer takes a layer out (staged), restore_layer brings it back by id, add_layer reuses free ids")
    func removeAndRestore() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 4, keyCount: 3)
        _ = firmware.unlock()
        #expect(answer(&firmware, .keymap(.removeLayer(index: 1))) == .keymap(.removeLayer(.ok(StudioEmptyMessage()))))
        #expect(keymap(&firmware)?.layers.map(\.id) == [0, 2, 3])
        #expect(keymap(&firmware)?.availableLayers == 1)
        #expect(firmware.hasUnsavedChanges && firmware.savedKeymap.count == 4)
        #expect(answer(&firmware, .keymap(.removeLayer(index: 3))) == .keymap(.removeLayer(.failed(.invalidFirst))))
        #expect(
            answer(&firmware, .keymap(.restoreLayer(id: 9, at: 0))) == .keymap(.restoreLayer(.failed(.invalidFirst))))
        #expect(
            answer(&firmware, .keymap(.restoreLayer(id: 1, at: 7))) == .keymap(.restoreLayer(.failed(.invalidSecond))))
        guard case .keymap(.restoreLayer(.ok(let layer))) = answer(&firmware, .keymap(.restoreLayer(id: 1, at: 3)))
        else {
            Issue.record("restore_layer did not answer the layer")
            return
        }
        #expect(layer.id == 1 && layer.name == "Layer 1")
        #expect(keymap(&firmware)?.layers.map(\.id) == [0, 2, 3, 1])
        _ = answer(&firmware, .keymap(.removeLayer(index: 3)))
        _ = answer(&firmware, .keymap(.saveChanges))
        #expect(firmware.savedKeymap.count == 3)
        // Saved: the removed layer cannot be restored any more, and add_layer takes its id.
        #expect(
            answer(&firmware, .keymap(.restoreLayer(id: 1, at: 0))) == .keymap(.restoreLayer(.failed(.invalidFirst))))
        guard case .keymap(.addLayer(.ok(let index, let added))) = answer(&firmware, .keymap(.addLayer)) else {
            Issue.record("add_layer failed")
            return
        }
        #expect(index == 3 && added.id == 1)
    }

    @Test("move_layer answers the keymap after the move, and only GENERIC on any failure, as ZMK does")
    func move() {
        var firmware = SimulatedStudioFirmware(layerCount: 3, keyCount: 2)
        _ = firmware.unlock()
        guard case .keymap(.moveLayer(.ok(let moved))) = answer(&firmware, .keymap(.moveLayer(from: 0, to: 2))) else {
            Issue.record("move_layer failed")
            return
        }
        #expect(moved.layers.map(\.id) == [1, 2, 0])
        #expect(moved.layers.map(\.name) == ["Layer 1", "Layer 2", "Base"])
        #expect(answer(&firmware, .keymap(.moveLayer(from: 5, to: 0))) == .keymap(.moveLayer(.failed(.generic))))
        #expect(answer(&firmware, .keymap(.moveLayer(from: 0, to: 3))) == .keymap(.moveLayer(.failed(.generic))))
        _ = answer(&firmware, .keymap(.discardChanges))
        #expect(keymap(&firmware)?.layers.map(\.id) == [0, 1, 2])
    }

    @Test(
        "set_layer_props names a layer by id; an empty name is OK and changes nothing; unknown ids and long names fail")
    func props() {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 2)
        _ = firmware.unlock()
        #expect(
            answer(&firmware, .keymap(.setLayerProps(.init(layerID: 1, name: "Nav")))) == .keymap(.setLayerProps(.ok)))
        #expect(keymap(&firmware)?.layers.map(\.name) == ["Base", "Nav"])
        _ = answer(&firmware, .keymap(.saveChanges))
        #expect(
            answer(&firmware, .keymap(.setLayerProps(.init(layerID: 1, name: "")))) == .keymap(.setLayerProps(.ok)))
        #expect(
            answer(&firmware, .keymap(.setLayerProps(.init(layerID: 77, name: "")))) == .keymap(.setLayerProps(.ok)))
        #expect(!firmware.hasUnsavedChanges)
        #expect(keymap(&firmware)?.layers.map(\.name) == ["Base", "Nav"])
        #expect(
            answer(&firmware, .keymap(.setLayerProps(.init(layerID: 77, name: "x"))))
                == .keymap(.setLayerProps(.invalidFirst)))
        let long = String(repeating: "x", count: SimulatedStudioFirmware.maximumLayerNameLength + 1)
        #expect(
            answer(&firmware, .keymap(.setLayerProps(.init(layerID: 0, name: long))))
                == .keymap(.setLayerProps(.generic)))
    }

    @Test("Wire bytes of the layer requests and answers (keymap.proto fields 8, 10, 11, 12)")
    func wireFormat() throws {
        // MoveLayerRequest { start_index = 1; dest_index = 2 } in field 8.
        #expect(
            StudioKeymapRequest.moveLayer(from: 1, to: 2).serializedBytes() == [0x42, 0x04, 0x08, 0x01, 0x10, 0x02])
        // RemoveLayerRequest { layer_index = 3 } in field 10.
        #expect(StudioKeymapRequest.removeLayer(index: 3).serializedBytes() == [0x52, 0x02, 0x08, 0x03])
        // RestoreLayerRequest { layer_id = 4; at_index = 1 } in field 11.
        #expect(
            StudioKeymapRequest.restoreLayer(id: 4, at: 1).serializedBytes() == [0x5A, 0x04, 0x08, 0x04, 0x10, 0x01])
        // SetLayerPropsRequest { layer_id = 1; name = "N" } in field 12.
        let props: [UInt8] = [0x62, 0x05, 0x08, 0x01, 0x12, 0x01, 0x4E]
        #expect(StudioKeymapRequest.setLayerProps(.init(layerID: 1, name: "N")).serializedBytes() == props)
        for request in [
            StudioKeymapRequest.moveLayer(from: 1, to: 2), .removeLayer(index: 3), .restoreLayer(id: 4, at: 1),
            .setLayerProps(.init(layerID: 1, name: "N")),
        ] {
            #expect(try StudioKeymapRequest(serializedBytes: request.serializedBytes()) == request)
        }
        // MoveLayerResponse { err = GENERIC }, RemoveLayerResponse { ok = {} }, SetLayerPropsResponse INVALID_ID.
        #expect(StudioKeymapResponse.moveLayer(.failed(.generic)).serializedBytes() == [0x42, 0x02, 0x10, 0x01])
        #expect(try StudioKeymapResponse(serializedBytes: [0x52, 0x02, 0x0A, 0x00]) == .removeLayer(.ok(.init())))
        #expect(try StudioKeymapResponse(serializedBytes: [0x60, 0x02]) == .setLayerProps(.invalidFirst))
        #expect(
            try StudioKeymapResponse(serializedBytes: [0x5A, 0x02, 0x10, 0x03])
                == .restoreLayer(.failed(.invalidSecond)))
    }
}
