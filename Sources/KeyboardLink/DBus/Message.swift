/// A D-Bus message in Swift form: header fields and a decoded body.
///
/// Messages are plain values: decoded once on the connection's queue, then safe to pass anywhere.
public struct Message: Sendable {
    /// The four message types of the D-Bus wire protocol.
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal
    }

    public var kind: Kind
    /// The sender's serial; 0 until sent.
    public var serial: UInt32 = 0
    /// For replies and errors: the serial of the call they answer.
    public var replySerial: UInt32?
    public var path: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    public var errorName: ErrorName?
    public var sender: BusName?
    public var destination: BusName?
    /// The body, one value per argument.
    public var body: [DBusValue]
    /// For method calls: the caller does not want a reply.
    public var noReplyExpected = false

    /// The body's signature.
    @inlinable
    public var signature: Signature { Signature(body.map(\.type)) }

    init(kind: Kind, body: [DBusValue] = []) {
        self.kind = kind
        self.body = body
    }

    /// A method call.
    public static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        body: [DBusValue] = []
    ) -> Message {
        var message = Message(kind: .methodCall, body: body)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    /// A signal.
    public static func signal(
        path: ObjectPath, interface: InterfaceName, member: MemberName, body: [DBusValue] = [],
        destination: BusName? = nil
    ) -> Message {
        var message = Message(kind: .signal, body: body)
        message.path = path
        message.interface = interface
        message.member = member
        message.destination = destination
        return message
    }

    /// A reply to `call`.
    public static func methodReturn(to call: Message, body: [DBusValue] = []) -> Message {
        var message = Message(kind: .methodReturn, body: body)
        message.replySerial = call.serial
        message.destination = call.sender
        return message
    }

    /// An error reply to `call`.
    public static func error(to call: Message, _ error: DBusError) -> Message {
        var message = Message(kind: .error, body: [.string(error.message)])
        message.replySerial = call.serial
        message.destination = call.sender
        message.errorName = error.name
        return message
    }

    /// Decodes the whole body as the given types, in order.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the body has another signature.
    @inlinable
    public func decode<each T: DBusRepresentable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        var expected: [DBusType] = []
        for type in repeat (each T).self {
            expected.append(type.dbusType)
        }
        guard body.count == expected.count else {
            throw DBusError.invalidArgs(
                "expected arguments '\(Signature(expected).rawValue)', got '\(signature.rawValue)'")
        }
        var reader = DBusValueReader(body)
        return (repeat try reader.next((each T).self))
    }

    /// The error this message carries, when it is an error reply.
    public var carriedError: DBusError? {
        guard kind == .error else { return nil }
        let text = body.first?.stringValue ?? ""
        return DBusError(errorName ?? .failed, text)
    }
}
