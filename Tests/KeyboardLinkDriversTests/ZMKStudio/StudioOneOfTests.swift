import Testing

@testable import KeyboardLinkDrivers

/// ZMK Studio's responses and notifications are each one protobuf `oneof`, read by
/// `ProtobufReader.readOneOf(message:oneof:unrecognized:member:)`: an empty message is an error naming the message,
/// a message with only unknown members is `unrecognized`, and the last member read wins.
@Suite("Studio messages made of one oneof")
struct StudioOneOfTests {
    /// One message type: its protobuf and oneof names, and whether bytes decode to its `unrecognized(field:)`.
    struct OneOfMessage: Sendable, CustomTestStringConvertible {
        var message: String
        var oneof: String
        var decode: @Sendable ([UInt8]) throws -> Void
        var decodesAsUnrecognized: @Sendable ([UInt8], Int) throws -> Bool

        var testDescription: String { message }

        /// `unrecognized` is the type's `unrecognized(field:)` case.
        static func of<M: ProtobufMessage & Equatable>(
            _ message: String, _ oneof: String, unrecognized: @escaping @Sendable (Int) -> M
        ) -> OneOfMessage {
            OneOfMessage(
                message: message, oneof: oneof, decode: { _ = try M(serializedBytes: $0) },
                decodesAsUnrecognized: { bytes, field in try M(serializedBytes: bytes) == unrecognized(field) })
        }
    }

    static let messages: [OneOfMessage] = [
        .of("zmk.core.Notification", "notification_type", unrecognized: StudioCoreNotification.unrecognized),
        .of("zmk.keymap.Notification", "notification_type", unrecognized: StudioKeymapNotification.unrecognized),
        .of("zmk.studio.Notification", "subsystem", unrecognized: StudioNotification.unrecognized),
        .of("zmk.core.Response", "response_type", unrecognized: StudioCoreResponse.unrecognized),
        .of("zmk.behaviors.Response", "response_type", unrecognized: StudioBehaviorsResponse.unrecognized),
        .of("zmk.keymap.Response", "response_type", unrecognized: StudioKeymapResponse.unrecognized),
    ]

    @Test("an empty message is an error that names the message and its oneof", arguments: messages)
    func emptyMessage(_ type: OneOfMessage) {
        #expect(throws: ProtobufError.missingField(message: type.message, field: type.oneof)) {
            try type.decode([])
        }
    }

    @Test("only unknown members: unrecognized, with the first unknown field number", arguments: messages)
    func unknownMembers(_ type: OneOfMessage) throws {
        // Field 20 (varint 1), then field 13 (varint 0): neither is a member of any of these messages.
        #expect(try type.decodesAsUnrecognized([0xA0, 0x01, 0x01, 0x68, 0x00], 20))
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
