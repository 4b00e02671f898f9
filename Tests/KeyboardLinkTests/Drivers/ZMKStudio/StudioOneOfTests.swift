import Testing

@testable import KeyboardLink

/// ZMK Studio's responses and notifications are each one protobuf `oneof`, read by
/// `ProtobufReader.readOneOf(message:oneof:unrecognized:member:)`: an empty message is an error naming the message,
/// a message with only unknown members is `unrecognized`, and the last member read wins.
@Suite("Studio messages made of one oneof")
struct StudioOneOfTests {
    /// One message type: its protobuf and oneof names, and a check that bytes decode to `unrecognized(field:)`.
    struct OneOfMessage: Sendable, CustomTestStringConvertible {
        var message: String
        var oneof: String
        var decode: @Sendable ([UInt8]) throws -> Void
        var unrecognizedField: @Sendable ([UInt8]) throws -> Int?

        var testDescription: String { message }

        static func of<M: ProtobufMessage & Equatable>(
            _ type: M.Type, _ message: String, _ oneof: String, unrecognized: @escaping @Sendable (M) -> Int?
        ) -> OneOfMessage {
            OneOfMessage(
                message: message, oneof: oneof, decode: { _ = try M(serializedBytes: $0) },
                unrecognizedField: { unrecognized(try M(serializedBytes: $0)) })
        }
    }

    static let messages: [OneOfMessage] = [
        .of(StudioCoreNotification.self, "zmk.core.Notification", "notification_type") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
        .of(StudioKeymapNotification.self, "zmk.keymap.Notification", "notification_type") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
        .of(StudioNotification.self, "zmk.studio.Notification", "subsystem") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
        .of(StudioCoreResponse.self, "zmk.core.Response", "response_type") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
        .of(StudioBehaviorsResponse.self, "zmk.behaviors.Response", "response_type") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
        .of(StudioKeymapResponse.self, "zmk.keymap.Response", "response_type") {
            if case .unrecognized(let field) = $0 { field } else { nil }
        },
    ]

    @Test("an empty message is an error that names the message and its oneof", arguments: messages)
    func emptyMessage(_ type: OneOfMessage) {
        #expect(throws: ProtobufError.missingField(message: type.message, field: type.oneof)) {
            try type.decode([])
        }
    }

    @Test("only unknown members: unrecognized, with the first unknown field number", arguments: messages)
    func unknownMembers(_ type: OneOfMessage) throws {
        // Field 9 (varint 1), then field 12 (varint 0): neither is a member of any of these messages.
        #expect(try type.unrecognizedField([0x48, 0x01, 0x60, 0x00]) == 9)
    }

    @Test("the last member read wins, and unknown fields beside a known one are skipped")
    func lastMemberWins() throws {
        // lock_state = UNLOCKED (field 2), then reset_settings = true (field 4).
        #expect(try StudioCoreResponse(serializedBytes: [0x10, 0x01, 0x20, 0x01]) == .resetSettings(true))
        // An unknown field 9 first, then lock_state = UNLOCKED.
        #expect(try StudioCoreResponse(serializedBytes: [0x48, 0x01, 0x10, 0x01]) == .lockState(.unlocked))
        // A known member whose value is malformed is an error, not unrecognized: field 1 (a message) cut short.
        #expect(throws: ProtobufError.self) { try StudioCoreResponse(serializedBytes: [0x0A, 0x05, 0x01]) }
    }
}
