import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDrivers

/// Golden bytes below are written by hand from the field table in protocols.md (field number << 3 | wire type,
/// varint lengths), not produced by our encoder.
@Suite("ZMK Studio messages")
struct StudioMessagesTests {
    private func frame(_ request: StudioRequest) -> [UInt8] {
        StudioFrameCodec.encode(request.serializedBytes())
    }

    @Test("get_device_info request, id 1")
    func getDeviceInfoFrame() {
        // 08 01: request_id = 1; 1A 02: field 3 (core), 2 bytes; 08 01: get_device_info = true.
        #expect(
            frame(StudioRequest(requestID: 1, subsystem: .core(.getDeviceInfo)))
                == [0xAB, 0x08, 0x01, 0x1A, 0x02, 0x08, 0x01, 0xAD])
    }

    @Test("get_keymap request, id 2")
    func getKeymapFrame() {
        // 2A 02: field 5 (keymap), 2 bytes; 08 01: get_keymap = true.
        #expect(
            frame(StudioRequest(requestID: 2, subsystem: .keymap(.getKeymap)))
                == [0xAB, 0x08, 0x02, 0x2A, 0x02, 0x08, 0x01, 0xAD])
    }

    @Test("set_layer_binding request: layer 1, position 5, behaviour 4, A key")
    func setLayerBindingFrame() {
        let binding = StudioBehaviorBinding(
            behaviorID: 4, param1: StudioHIDUsage(page: 0x07, id: 0x04).param1, param2: 0)
        let request = StudioRequest(
            requestID: 3,
            subsystem: .keymap(.setLayerBinding(.init(layerID: 1, keyPosition: 5, binding: binding))))
        // binding: 08 08 (sint32 4 → zigzag 8), 10 84 80 1C (param1 0x00070004 = 458756); param2 0 omitted.
        // set_layer_binding: 08 01 (layer 1), 10 05 (position 5), 1A 06 <binding>.
        // keymap.Request: 12 0C <set_layer_binding>; Request: 08 03, 2A 0E <keymap.Request>.
        #expect(
            frame(request) == [
                0xAB, 0x08, 0x03, 0x2A, 0x0E, 0x12, 0x0C, 0x08, 0x01, 0x10, 0x05, 0x1A, 0x06,
                0x08, 0x08, 0x10, 0x84, 0x80, 0x1C, 0xAD,
            ])
    }

    @Test("A request id of 171 (0xAB) is escaped inside the frame")
    func escapedRequestID() {
        // 08 AB 01: request_id 171; 1A 02 10 01: core.get_lock_state = true.
        #expect(
            frame(StudioRequest(requestID: 171, subsystem: .core(.getLockState)))
                == [0xAB, 0x08, 0xAC, 0xAB, 0x01, 0x1A, 0x02, 0x10, 0x01, 0xAD])
    }

    @Test("A negative behaviour id is zigzag encoded")
    func negativeBehaviorID() {
        #expect(StudioBehaviorBinding(behaviorID: -3).serializedBytes() == [0x08, 0x05])
    }

    @Test("A hand-built get_keymap response decodes field by field")
    func decodeKeymapResponse() throws {
        let bytes: [UInt8] = [
            0x0A, 0x1C,  // Response.request_response, 28 bytes
            0x08, 0x02,  // request_id 2
            0x2A, 0x18,  // keymap, 24 bytes
            0x0A, 0x16,  // get_keymap, 22 bytes
            0x0A, 0x10,  // layers[0], 16 bytes (id 0 omitted)
            0x12, 0x04, 0x42, 0x61, 0x73, 0x65,  // name "Base"
            0x1A, 0x04, 0x08, 0x02, 0x10, 0x04,  // binding {behavior 1, param1 4}
            0x1A, 0x02, 0x08, 0x05,  // binding {behavior -3}
            0x10, 0x02,  // available_layers 2
            0x18, 0x14,  // max_layer_name_length 20
        ]
        let response = try StudioResponse(serializedBytes: bytes)
        let expected = StudioKeymap(
            layers: [
                StudioLayer(
                    id: 0, name: "Base",
                    bindings: [StudioBehaviorBinding(behaviorID: 1, param1: 4), StudioBehaviorBinding(behaviorID: -3)])
            ],
            availableLayers: 2, maxLayerNameLength: 20)
        #expect(response == .requestResponse(.init(requestID: 2, payload: .keymap(.keymap(expected)))))
        // And the encoder produces the same bytes back.
        #expect(response.serializedBytes() == bytes)
        // Every proper prefix is an error, never a crash or a silently shorter keymap.
        for length in 0..<bytes.count {
            #expect(throws: ProtobufError.self) { try StudioResponse(serializedBytes: Array(bytes[..<length])) }
        }
    }

    @Test("Notifications decode, and a LOCKED state (0) is still written because it is a oneof member")
    func notifications() throws {
        #expect(
            try StudioResponse(serializedBytes: [0x12, 0x04, 0x12, 0x02, 0x08, 0x01])
                == .notification(.core(.lockStateChanged(.unlocked))))
        #expect(
            StudioResponse.notification(.core(.lockStateChanged(.locked))).serializedBytes()
                == [0x12, 0x04, 0x12, 0x02, 0x08, 0x00])
        #expect(
            try StudioResponse(serializedBytes: [0x12, 0x04, 0x2A, 0x02, 0x08, 0x01])
                == .notification(.keymap(.unsavedChangesStatusChanged(true))))
    }

    @Test("A meta UNLOCK_REQUIRED error decodes and maps to StudioRPCError")
    func metaError() throws {
        let response = try StudioResponse(serializedBytes: [0x0A, 0x06, 0x08, 0x07, 0x12, 0x02, 0x10, 0x01])
        guard case .requestResponse(let answer) = response else {
            Issue.record("expected a request response, got \(response)")
            return
        }
        #expect(answer.requestID == 7)
        #expect(answer.payload == .meta(.simpleError(.unlockRequired)))
        #expect(throws: StudioRPCError.firmware(.unlockRequired)) { try answer.payload.keymap() }
    }

    @Test("save_changes decodes both the current message and the older plain bool")
    func saveChangesBothShapes() throws {
        // Current: 22 02 08 01 (SaveChangesResponse { ok: true }); error: 22 02 10 03 (err NO_SPACE).
        #expect(try StudioKeymapResponse(serializedBytes: [0x22, 0x02, 0x08, 0x01]) == .saveChanges(.ok))
        #expect(try StudioKeymapResponse(serializedBytes: [0x22, 0x02, 0x10, 0x03]) == .saveChanges(.failed(.noSpace)))
        // 2024 firmware: 20 01 (bool true).
        #expect(try StudioKeymapResponse(serializedBytes: [0x20, 0x01]) == .saveChanges(.ok))
    }

    @Test("list_all_behaviors decodes unpacked ids (as ZMK sends them) and packed ids")
    func behaviorList() throws {
        // Behaviors response: 0A <len> ListAllBehaviorsResponse.
        let unpacked: [UInt8] = [0x0A, 0x07, 0x08, 0x01, 0x08, 0x02, 0x08, 0x90, 0x03]
        let packed: [UInt8] = [0x0A, 0x06, 0x0A, 0x04, 0x01, 0x02, 0x90, 0x03]
        #expect(try StudioBehaviorsResponse(serializedBytes: unpacked) == .behaviorIDs([1, 2, 400]))
        #expect(try StudioBehaviorsResponse(serializedBytes: packed) == .behaviorIDs([1, 2, 400]))
        #expect(StudioBehaviorsResponse.behaviorIDs([1, 2, 400]).serializedBytes() == unpacked)
    }

    @Test("Behaviour details keep their metadata undecoded")
    func behaviorDetails() throws {
        // 08 05 id 5; 12 09 "Key Press"; 1A 02 0A 00: one metadata set with an empty param1 description.
        let bytes: [UInt8] = [
            0x08, 0x05, 0x12, 0x09, 0x4B, 0x65, 0x79, 0x20, 0x50, 0x72, 0x65, 0x73, 0x73, 0x1A, 0x02, 0x0A, 0x00,
        ]
        let details = try StudioBehaviorDetails(serializedBytes: bytes)
        #expect(details == StudioBehaviorDetails(id: 5, displayName: "Key Press", rawMetadata: [[0x0A, 0x00]]))
        #expect(details.serializedBytes() == bytes)
    }

    @Test("Unknown subsystems and members decode as unrecognized instead of failing")
    func unrecognizedMembers() throws {
        // RequestResponse { request_id 4, field 9 varint 1 }.
        #expect(
            try StudioRequestResponse(serializedBytes: [0x08, 0x04, 0x48, 0x01])
                == StudioRequestResponse(requestID: 4, payload: .unrecognized(field: 9)))
        // keymap.Response field 13 comes from a newer ZMK.
        #expect(try StudioKeymapResponse(serializedBytes: [0x6A, 0x00]) == .unrecognized(field: 13))
        // Field 7 (set_active_physical_layout) is modelled: an answer with neither result is refused.
        #expect(throws: ProtobufError.self) { try StudioKeymapResponse(serializedBytes: [0x3A, 0x00]) }
        // 3A 02 10 01: err GENERIC.
        #expect(
            try StudioKeymapResponse(serializedBytes: [0x3A, 0x02, 0x10, 0x01])
                == .setActivePhysicalLayout(.failed(.generic)))
        #expect(throws: ProtobufError.missingField(message: "zmk.studio.Response", field: "type")) {
            try StudioResponse(serializedBytes: [])
        }
    }

    @Test("Device info: name and raw serial bytes")
    func deviceInfo() throws {
        let bytes: [UInt8] = [0x0A, 0x03, 0x46, 0x38, 0x37, 0x12, 0x03, 0x00, 0xAB, 0xFF]
        let info = try StudioDeviceInfo(serializedBytes: bytes)
        #expect(info == StudioDeviceInfo(name: "F87", serialNumber: [0x00, 0xAB, 0xFF]))
        #expect(info.serialNumberHex == "00abff")
    }

    @Test("Physical layout keys are sint32 in hundredths of a key")
    func physicalLayouts() throws {
        let layouts = StudioPhysicalLayouts(
            activeLayoutIndex: 0,
            layouts: [
                StudioPhysicalLayout(
                    name: "TKL",
                    keys: [StudioKeyPhysicalAttributes(width: 100, height: 100, x: 0, y: 0, r: -1500, rx: 50, ry: 50)])
            ])
        // key: 08 C8 01 (w 100 → 200), 10 C8 01 (h), x/y 0 omitted, 28 B7 17 (r -1500 → 2999), 30 64, 38 64.
        let key: [UInt8] = [0x08, 0xC8, 0x01, 0x10, 0xC8, 0x01, 0x28, 0xB7, 0x17, 0x30, 0x64, 0x38, 0x64]
        let layout: [UInt8] = [0x0A, 0x03, 0x54, 0x4B, 0x4C, 0x12, UInt8(key.count)] + key
        #expect(layouts.serializedBytes() == [0x12, UInt8(layout.count)] + layout)
        #expect(try StudioPhysicalLayouts(serializedBytes: layouts.serializedBytes()) == layouts)
    }

    @Test("Every request kind survives a round trip")
    func requestRoundTrips() throws {
        let subsystems: [StudioRequest.Subsystem] = [
            .core(.getDeviceInfo), .core(.getLockState), .core(.lock), .core(.resetSettings),
            .behaviors(.listAllBehaviors), .behaviors(.getBehaviorDetails(behaviorID: 0)),
            .behaviors(.getBehaviorDetails(behaviorID: 77)),
            .keymap(.getKeymap), .keymap(.checkUnsavedChanges), .keymap(.saveChanges), .keymap(.discardChanges),
            .keymap(.getPhysicalLayouts), .keymap(.setActivePhysicalLayout(0)), .keymap(.setActivePhysicalLayout(2)),
            .keymap(
                .setLayerBinding(
                    .init(layerID: 3, keyPosition: -1, binding: .init(behaviorID: -7, param1: .max, param2: 9)))),
        ]
        for (index, subsystem) in subsystems.enumerated() {
            let request = StudioRequest(requestID: UInt32(index) * 1_000_003, subsystem: subsystem)
            #expect(try StudioRequest(serializedBytes: request.serializedBytes()) == request)
        }
    }

    @Test("Every response kind survives a round trip")
    func responseRoundTrips() throws {
        let payloads: [StudioRequestResponse.Payload] = [
            .meta(.noResponse), .meta(.simpleError(.generic)), .meta(.simpleError(.unrecognized(42))),
            .core(.deviceInfo(.init(name: "Aula F87", serialNumber: [1, 2, 3]))), .core(.lockState(.locked)),
            .core(.lockState(.unlocked)), .core(.resetSettings(false)),
            .behaviors(.behaviorIDs([])), .behaviors(.behaviorDetails(.init(id: 0, displayName: ""))),
            .keymap(.keymap(.init(layers: []))), .keymap(.setLayerBinding(.ok)),
            .keymap(.setLayerBinding(.invalidParameters)), .keymap(.unsavedChanges(false)),
            .keymap(.saveChanges(.ok)), .keymap(.saveChanges(.failed(.notSupported))), .keymap(.discardChanges(true)),
            .keymap(.physicalLayouts(.init(activeLayoutIndex: 1, layouts: []))),
            .keymap(
                .setActivePhysicalLayout(.ok(.init(layers: [.init(id: 1, name: "", bindings: [.init(behaviorID: 3)])])))
            ),
            .keymap(.setActivePhysicalLayout(.failed(.generic))),
        ]
        for (index, payload) in payloads.enumerated() {
            let response = StudioResponse.requestResponse(.init(requestID: UInt32(index), payload: payload))
            #expect(try StudioResponse(serializedBytes: response.serializedBytes()) == response)
        }
    }

    @Test("Random keymaps survive a round trip", arguments: [UInt64(7), 8, 9])
    func randomKeymaps(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let layers = (0..<Int.random(in: 0...6, using: &generator)).map { index in
                StudioLayer(
                    id: UInt32(index),
                    name: Bool.random(using: &generator) ? "" : "Layer \(index)",
                    bindings: (0..<Int.random(in: 0...100, using: &generator)).map { _ in
                        StudioBehaviorBinding(
                            behaviorID: Int32.random(in: -100...100, using: &generator),
                            param1: UInt32.random(in: 0 ... .max, using: &generator),
                            param2: UInt32.random(in: 0...8, using: &generator))
                    })
            }
            let keymap = StudioKeymap(
                layers: layers, availableLayers: UInt32.random(in: 0...4, using: &generator), maxLayerNameLength: 20)
            #expect(try StudioKeymap(serializedBytes: keymap.serializedBytes()) == keymap)
        }
    }

    @Test("Key-press parameters pack modifiers, page and id")
    func hidUsage() {
        let usage = StudioHIDUsage(page: 0x07, id: 0x04, modifiers: [.leftShift, .rightAlt])
        #expect(usage.param1 == 0x4207_0004)
        #expect(StudioHIDUsage(param1: 0x4207_0004) == usage)
        #expect(StudioHIDUsage(param1: 0x000C_00E9) == StudioHIDUsage(page: 0x0C, id: 0xE9))
    }
}
