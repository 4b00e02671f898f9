/// A D-Bus message in Swift form: header fields and a decoded body.
///
/// Messages are plain values: decoded once on the connection's thread, then safe to pass anywhere.
///
/// File descriptors a received message carries (`h`, anywhere in its body) belong to the message: every copy of it
/// shares them, and they are closed when the last copy is released. `dup()` a descriptor to keep it longer.
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
    ///
    /// A received message keeps its body in wire form until this is first read (then decoded once); typed decoding
    /// with ``decode(_:)`` reads the wire form directly and never builds these values.
    public var body: [DBusValue] {
        get {
            switch storage {
            case .values(let values): values
            case .wire(let wire): wire.values
            }
        }
        set { storage = .values(newValue) }
    }
    @usableFromInline var storage: Storage
    /// For method calls: the caller does not want a reply.
    public var noReplyExpected = false
    /// For method calls: the caller is prepared to wait for an interactive authorization (a polkit password
    /// dialog), the header flag `ALLOW_INTERACTIVE_AUTHORIZATION`. Set it on a call to ask for that; read it on a
    /// received call to decide whether a check may ask the person.
    public var allowsInteractiveAuthorization = false
    /// A received message's file descriptors (``DBusValue/unixFD(_:)`` in its body): they belong to the message and
    /// are closed when the last copy of it is released. Nil when it carries none.
    var descriptors: ReceivedDescriptors?

    /// Where the body lives: values built in Swift, or a received message's bytes.
    @usableFromInline
    enum Storage: Sendable {
        case values([DBusValue])
        case wire(WireBody)
    }

    /// The body's signature.
    public var signature: Signature {
        switch storage {
        case .values(let values): Signature(values.map(\.type))
        case .wire(let wire): wire.signature
        }
    }

    /// The length of the body's signature in bytes, counted without building it (no allocation per message).
    var bodySignatureLength: Int {
        switch storage {
        case .values(let values): values.reduce(0) { $0 + $1.type.signatureLength }
        case .wire(let wire): wire.signature.rawValue.utf8.count
        }
    }

    /// The size in bytes of a received message's body as it came over the wire, known before any of it is decoded; nil
    /// for a message built here or one whose body libdbus decoded (one carrying file descriptors).
    public var receivedBodySize: Int? {
        guard case .wire(let wire) = storage else { return nil }
        return wire.count - wire.bodyOffset
    }

    /// The first argument when it is a string (`s`), read without decoding the rest of the body: what a match rule's
    /// `arg0` compares. Nil when the body starts with another type or is empty.
    public var firstStringArgument: String? {
        switch storage {
        case .values(let values):
            guard case .string(let text)? = values.first else { return nil }
            return text
        case .wire(let wire):
            guard wire.signature.rawValue.utf8.first == UInt8(ascii: "s") else { return nil }
            var reader = wire.reader()
            return try? reader.readText(lengthBytes: 4)
        }
    }

    init(kind: Kind, body: [DBusValue] = []) {
        self.kind = kind
        self.storage = .values(body)
    }

    init(kind: Kind, wire: WireBody) {
        self.kind = kind
        self.storage = .wire(wire)
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
    ///
    /// A received body is read straight from its wire bytes into the Swift types (``DBusRepresentable/init(dbusWire:)``);
    /// ``DBusValue`` is built only for variants.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the body has another signature.
    @inlinable
    public func decode<each T: DBusRepresentable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        var expected: [DBusType] = []
        for type in repeat (each T).self {
            expected.append(type.dbusType)
        }
        if case .wire(let wire) = storage {
            // One comparison of the signature checks every value's type: the readers below only read.
            guard wire.signature.types == expected else {
                throw DBusError.invalidArgs(
                    "expected arguments '\(Signature(expected).rawValue)', got '\(wire.signature.rawValue)'")
            }
            var reader = wire.reader()
            return (repeat try reader.next((each T).self))
        }
        let body = self.body
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
