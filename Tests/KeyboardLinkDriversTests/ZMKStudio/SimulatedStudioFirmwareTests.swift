import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

@Suite("Simulated ZMK Studio firmware")
struct SimulatedStudioFirmwareTests {
    private func call(
        _ firmware: inout SimulatedStudioFirmware, _ subsystem: StudioRequest.Subsystem, id: UInt32 = 1
    ) -> [StudioResponse] {
        firmware.handle(StudioRequest(requestID: id, subsystem: subsystem))
    }

    private func answer(_ responses: [StudioResponse]) -> StudioRequestResponse.Payload? {
        guard case .requestResponse(let answer) = responses.last else { return nil }
        return answer.payload
    }

    private func keyPress(_ firmware: SimulatedStudioFirmware, usage: UInt16) throws -> StudioBehaviorBinding {
        let id = try #require(firmware.behaviorID(named: "Key Press"))
        return StudioBehaviorBinding(behaviorID: Int32(id), param1: StudioHIDUsage(page: 0x07, id: usage).param1)
    }

    @Test("While locked only device info, lock state and the behaviour list answer")
    func lockedKeyboard() {
        var firmware = SimulatedStudioFirmware(name: "Aula F87", serialNumber: [1, 2])
        #expect(
            answer(call(&firmware, .core(.getDeviceInfo)))
                == .core(.deviceInfo(.init(name: "Aula F87", serialNumber: [1, 2]))))
        #expect(answer(call(&firmware, .core(.getLockState))) == .core(.lockState(.locked)))
        #expect(
            answer(call(&firmware, .behaviors(.listAllBehaviors)))
                == .behaviors(.behaviorIDs([11, 12, 13, 14, 15, 16])))
        #expect(answer(call(&firmware, .keymap(.getKeymap))) == .meta(.simpleError(.unlockRequired)))
        #expect(
            answer(call(&firmware, .behaviors(.getBehaviorDetails(behaviorID: 11))))
                == .meta(.simpleError(.unlockRequired)))
        #expect(answer(call(&firmware, .keymap(.saveChanges))) == .meta(.simpleError(.unlockRequired)))
    }

    @Test("unlock() sends lock_state_changed once and opens the secured calls")
    func unlocking() {
        var firmware = SimulatedStudioFirmware()
        #expect(firmware.unlock() == [.notification(.core(.lockStateChanged(.unlocked)))])
        #expect(firmware.unlock().isEmpty)
        guard case .keymap(.keymap(let keymap)) = answer(call(&firmware, .keymap(.getKeymap))) else {
            Issue.record("expected a keymap")
            return
        }
        #expect(keymap.layers.count == 4)
        #expect(keymap.layers.allSatisfy { $0.bindings.count == 87 })
        #expect(keymap.layers.map(\.id) == [0, 1, 2, 3])
        #expect(keymap.layers[0].name == "Base")
        // Position 0 of the base layer types A (usage 0x04) with Key Press (id 11).
        #expect(keymap.layers[0].bindings[0] == StudioBehaviorBinding(behaviorID: 11, param1: 0x0007_0004))
        // lock is allowed while unlocked too, and announces the change before its answer.
        #expect(
            call(&firmware, .core(.lock), id: 9) == [
                .notification(.core(.lockStateChanged(.locked))),
                .requestResponse(.init(requestID: 9, payload: .meta(.noResponse))),
            ])
    }

    @Test("Behaviour details give the display names, including firmware macros")
    func behaviorNames() {
        var firmware = SimulatedStudioFirmware(macroBehaviorNames: ["Email Signature"])
        _ = firmware.unlock()
        var names: [String] = []
        guard case .behaviors(.behaviorIDs(let ids)) = answer(call(&firmware, .behaviors(.listAllBehaviors))) else {
            Issue.record("expected behaviour ids")
            return
        }
        for id in ids {
            if case .behaviors(.behaviorDetails(let details)) = answer(
                call(&firmware, .behaviors(.getBehaviorDetails(behaviorID: id))))
            {
                #expect(details.id == id)
                names.append(details.displayName)
            }
        }
        #expect(
            names == [
                "Key Press", "Momentary Layer", "Transparent", "None", "Toggle Layer", "Studio Unlock",
                "Email Signature",
            ])
        #expect(
            answer(call(&firmware, .behaviors(.getBehaviorDetails(behaviorID: 999)))) == .meta(.simpleError(.generic)))
    }

    @Test("Edits are staged until save; discard drops them; notifications come before answers")
    func stagedEdits() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 10)
        _ = firmware.unlock()
        let original = firmware.savedKeymap
        let edit = try keyPress(firmware, usage: 0x29)  // Escape
        let request = StudioSetLayerBindingRequest(layerID: 1, keyPosition: 3, binding: edit)
        #expect(
            call(&firmware, .keymap(.setLayerBinding(request)), id: 5) == [
                .notification(.keymap(.unsavedChangesStatusChanged(true))),
                .requestResponse(.init(requestID: 5, payload: .keymap(.setLayerBinding(.ok)))),
            ])
        #expect(firmware.activeKeymap[1][3] == edit)
        #expect(firmware.savedKeymap == original)
        #expect(answer(call(&firmware, .keymap(.checkUnsavedChanges))) == .keymap(.unsavedChanges(true)))

        let discarded = call(&firmware, .keymap(.discardChanges), id: 6)
        #expect(discarded.first == .notification(.keymap(.unsavedChangesStatusChanged(false))))
        #expect(answer(discarded) == .keymap(.discardChanges(true)))
        #expect(firmware.activeKeymap == original)
        #expect(answer(call(&firmware, .keymap(.checkUnsavedChanges))) == .keymap(.unsavedChanges(false)))

        _ = call(&firmware, .keymap(.setLayerBinding(request)))
        let saved = call(&firmware, .keymap(.saveChanges), id: 7)
        #expect(saved.first == .notification(.keymap(.unsavedChangesStatusChanged(false))))
        #expect(answer(saved) == .keymap(.saveChanges(.ok)))
        #expect(firmware.savedKeymap[1][3] == edit)
        #expect(firmware.savedKeymap[0] == original[0])
        // A discard after saving changes nothing.
        _ = call(&firmware, .keymap(.discardChanges))
        #expect(firmware.activeKeymap[1][3] == edit)
    }

    @Test("Invalid locations, behaviours and parameters are refused without staging anything")
    func invalidBindings() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 10)
        _ = firmware.unlock()
        let good = try keyPress(firmware, usage: 0x04)
        let momentary = Int32(try #require(firmware.behaviorID(named: "Momentary Layer")))
        let cases: [(StudioSetLayerBindingRequest, StudioSetLayerBindingResult)] = [
            (.init(layerID: 2, keyPosition: 0, binding: good), .invalidLocation),
            (.init(layerID: 0, keyPosition: 10, binding: good), .invalidLocation),
            (.init(layerID: 0, keyPosition: -1, binding: good), .invalidLocation),
            (.init(layerID: 0, keyPosition: 0, binding: .init(behaviorID: 99)), .invalidBehavior),
            (.init(layerID: 0, keyPosition: 0, binding: .init(behaviorID: -11)), .invalidBehavior),
            (.init(layerID: 0, keyPosition: 0, binding: .init(behaviorID: momentary, param1: 2)), .invalidParameters),
            (
                .init(layerID: 0, keyPosition: 0, binding: .init(behaviorID: 11, param1: 0x0009_0004)),
                .invalidParameters
            ),
        ]
        for (request, expected) in cases {
            #expect(answer(call(&firmware, .keymap(.setLayerBinding(request)))) == .keymap(.setLayerBinding(expected)))
        }
        #expect(!firmware.hasUnsavedChanges)
        #expect(
            answer(
                call(
                    &firmware,
                    .keymap(
                        .setLayerBinding(
                            .init(layerID: 0, keyPosition: 0, binding: .init(behaviorID: momentary, param1: 1))))))
                == .keymap(.setLayerBinding(.ok)))
    }

    @Test("The Nth set_layer_binding can be made to fail")
    func failNthSet() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 1, keyCount: 5, faults: [.failSetLayerBinding(call: 2)])
        _ = firmware.unlock()
        let results = try (0..<3).map { position in
            let binding = try keyPress(firmware, usage: 0x1E)
            return answer(
                call(
                    &firmware,
                    .keymap(.setLayerBinding(.init(layerID: 0, keyPosition: Int32(position), binding: binding)))))
        }
        #expect(
            results == [.keymap(.setLayerBinding(.ok)), .meta(.simpleError(.generic)), .keymap(.setLayerBinding(.ok))])
        #expect(firmware.activeKeymap[0][1] == firmware.savedKeymap[0][1])
        #expect(firmware.activeKeymap[0][2] != firmware.savedKeymap[0][2])
    }

    @Test("The link drops after N requests; staged edits survive and the keyboard locks")
    func dropConnection() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 1, keyCount: 5, faults: [.dropConnection(afterRequests: 2)])
        _ = firmware.unlock()
        let binding = try keyPress(firmware, usage: 0x05)
        let first = call(&firmware, .keymap(.setLayerBinding(.init(layerID: 0, keyPosition: 0, binding: binding))))
        let second = call(&firmware, .keymap(.checkUnsavedChanges))
        let third = call(&firmware, .keymap(.saveChanges))
        #expect(answer(first) == .keymap(.setLayerBinding(.ok)))
        #expect(answer(second) == .keymap(.unsavedChanges(true)))
        #expect(third.isEmpty)
        #expect(!firmware.isConnected)
        #expect(firmware.lockState == .locked)
        firmware.reconnect()
        #expect(answer(call(&firmware, .keymap(.checkUnsavedChanges))) == .meta(.simpleError(.unlockRequired)))
        _ = firmware.unlock()
        #expect(answer(call(&firmware, .keymap(.checkUnsavedChanges))) == .keymap(.unsavedChanges(true)))
        #expect(firmware.activeKeymap[0][0] == binding)
    }

    @Test("Framed bytes in, framed bytes out: the client core talks to the firmware in 20-byte chunks")
    func framedConversation() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 2, keyCount: 30)
        var client = StudioRPCClientCore()
        var events: [StudioRPCEvent] = []
        func exchange(_ subsystem: StudioRequest.Subsystem) -> UInt32 {
            let (id, frame) = client.makeRequest(subsystem)
            var output: [UInt8] = []
            for chunk in StudioFrameCodec.split(frame, maximumLength: 7) {
                output += firmware.receive(bytes: chunk)
            }
            for chunk in StudioFrameCodec.split(output, maximumLength: 20) {
                events += client.receive(chunk)
            }
            return id
        }
        let lockedID = exchange(.keymap(.getKeymap))
        let unlockEvents = firmware.unlock().flatMap { StudioFrameCodec.encode($0.serializedBytes()) }
        events += client.receive(unlockEvents)
        let keymapID = exchange(.keymap(.getKeymap))
        #expect(events.count == 3)
        #expect(
            events[0]
                == .response(
                    requestID: lockedID, request: .keymap(.getKeymap), payload: .meta(.simpleError(.unlockRequired))))
        #expect(events[1] == .notification(.core(.lockStateChanged(.unlocked))))
        guard case .response(keymapID, _, .keymap(.keymap(let keymap))) = events[2] else {
            Issue.record("expected the keymap, got \(events[2])")
            return
        }
        #expect(keymap.layers.map(\.bindings) == firmware.activeKeymap)
        #expect(firmware.requestLog.count == 2)
    }

    @Test("A payload that does not decode is counted and answered with nothing, like ZMK")
    func undecodable() {
        var firmware = SimulatedStudioFirmware()
        #expect(firmware.handle(requestPayload: [0x0A, 0x09]).isEmpty)
        #expect(firmware.undecodableRequestCount == 1)
    }

    @Test("reset_settings restores the firmware's default keymap")
    func resetSettings() throws {
        var firmware = SimulatedStudioFirmware(layerCount: 1, keyCount: 3)
        _ = firmware.unlock()
        let original = firmware.savedKeymap
        let binding = try keyPress(firmware, usage: 0x2C)
        _ = call(&firmware, .keymap(.setLayerBinding(.init(layerID: 0, keyPosition: 1, binding: binding))))
        _ = call(&firmware, .keymap(.saveChanges))
        #expect(firmware.savedKeymap != original)
        #expect(answer(call(&firmware, .core(.resetSettings))) == .core(.resetSettings(true)))
        #expect(firmware.savedKeymap == original)
        #expect(firmware.activeKeymap == original)
    }
}
