import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

/// `add_layer` on the simulated ZMK Studio firmware, and its wire encoding (ZMK's `keymap.proto`, field 9).
@Suite("Simulated ZMK Studio firmware: add_layer")
struct SimulatedStudioAddLayerTests {
    private func answer(_ firmware: inout SimulatedStudioFirmware, _ subsystem: StudioRequest.Subsystem)
        -> StudioRequestResponse.Payload?
    {
        guard
            case .requestResponse(let answer) = firmware.handle(StudioRequest(requestID: 1, subsystem: subsystem)).last
        else { return nil }
        return answer.payload
    }

    private func availableLayers(_ firmware: inout SimulatedStudioFirmware) -> UInt32? {
        guard case .keymap(.keymap(let keymap)) = answer(&firmware, .keymap(.getKeymap)) else { return nil }
        return keymap.availableLayers
    }

    @Test("add_layer appends a transparent layer until none is available, then answers NO_SPACE")
    func addsUntilFull() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 3, availableLayers: 1)
        _ = firmware.unlock()
        #expect(availableLayers(&firmware) == 1)
        let transparent = try #require(firmware.behaviorID(named: "Transparent"))
        let responses = firmware.handle(StudioRequest(requestID: 7, subsystem: .keymap(.addLayer)))
        let added = StudioLayer(
            id: 2, name: "", bindings: Array(repeating: StudioBehaviorBinding(behaviorID: Int32(transparent)), count: 3)
        )
        #expect(
            responses == [
                .notification(.keymap(.unsavedChangesStatusChanged(true))),
                .requestResponse(.init(requestID: 7, payload: .keymap(.addLayer(.ok(index: 2, layer: added))))),
            ])
        #expect(firmware.activeKeymap.count == 3 && firmware.savedKeymap.count == 2)
        #expect(firmware.hasUnsavedChanges)
        #expect(availableLayers(&firmware) == 0)
        #expect(answer(&firmware, .keymap(.addLayer)) == .keymap(.addLayer(.failed(.noSpace))))
        #expect(firmware.activeKeymap.count == 3)
    }

    @Test("A staged layer is dropped by discard_changes and kept by save_changes")
    func stagedLikeEdits() {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 3, availableLayers: 2)
        _ = firmware.unlock()
        _ = answer(&firmware, .keymap(.addLayer))
        _ = answer(&firmware, .keymap(.discardChanges))
        #expect(firmware.activeKeymap.count == 2)
        #expect(availableLayers(&firmware) == 2)
        _ = answer(&firmware, .keymap(.addLayer))
        _ = answer(&firmware, .keymap(.saveChanges))
        #expect(firmware.savedKeymap.count == 3 && !firmware.hasUnsavedChanges)
        #expect(availableLayers(&firmware) == 1)
    }

    @Test("A firmware built without spare layers answers NO_SPACE and needs unlocking first")
    func noSpareLayers() {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 3)
        #expect(answer(&firmware, .keymap(.addLayer)) == .meta(.simpleError(.unlockRequired)))
        _ = firmware.unlock()
        #expect(answer(&firmware, .keymap(.addLayer)) == .keymap(.addLayer(.failed(.noSpace))))
        #expect(!firmware.hasUnsavedChanges)
    }

    @Test("Wire bytes: the request is field 9 holding an empty message; the answer is field 9 ok or err")
    func wireFormat() throws {
        #expect(StudioKeymapRequest.addLayer.serializedBytes() == [0x4A, 0x00])
        #expect(try StudioKeymapRequest(serializedBytes: [0x4A, 0x00]) == .addLayer)
        // AddLayerResponse { err = NO_SPACE (2) }, inside keymap.Response field 9.
        #expect(StudioKeymapResponse.addLayer(.failed(.noSpace)).serializedBytes() == [0x4A, 0x02, 0x10, 0x02])
        #expect(try StudioKeymapResponse(serializedBytes: [0x4A, 0x02, 0x10, 0x02]) == .addLayer(.failed(.noSpace)))
        // AddLayerResponse { ok = AddLayerResponseDetails { index = 4; layer = Layer { id = 5 } } }.
        let ok: [UInt8] = [0x4A, 0x08, 0x0A, 0x06, 0x08, 0x04, 0x12, 0x02, 0x08, 0x05]
        #expect(
            try StudioKeymapResponse(serializedBytes: ok)
                == .addLayer(.ok(index: 4, layer: StudioLayer(id: 5, name: "", bindings: []))))
        #expect(
            StudioKeymapResponse.addLayer(.ok(index: 4, layer: StudioLayer(id: 5, name: "", bindings: [])))
                .serializedBytes() == ok)
        #expect(StudioAddLayerError(protobufValue: 9) == .unrecognized(9))
    }
}
