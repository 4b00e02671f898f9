/// A named argument of a method or signal, for introspection.
public struct DBusArgument: Sendable, Equatable {
    public var name: String
    public var type: DBusType

    public init(_ name: String, _ type: DBusType) {
        self.name = name
        self.type = type
    }
}

/// One exported method: its arguments and a handler, synchronous or one that may reply later.
///
/// Declared either with ``DBusArgument``s and a handler that reads a ``MethodInvocation``, or with Swift argument and
/// result types (`DBusMethod+Typed.swift`), which the server answers without building a ``Message``. Both kinds, and
/// the standard interfaces' methods, are answered the same way (``MethodBody``).
public struct DBusMethod: Sendable {
    public var name: MemberName
    public var inputs: [DBusArgument]
    public var outputs: [DBusArgument]

    /// A method's implementation, given the whole call.
    public enum Handler: Sendable {
        /// Answers at once, without a task (for answers from memory).
        case synchronous(@Sendable (MethodInvocation) throws -> [DBusValue])
        /// May suspend; runs in a task on the connection's executor and replies when it returns.
        case asynchronous(@Sendable (MethodInvocation) async throws -> [DBusValue])
    }

    /// Declares a method. The server checks the caller's argument signature against `inputs` before the
    /// handler runs and answers `InvalidArgs` on a mismatch.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        handler: @escaping @Sendable (MethodInvocation) async throws -> [DBusValue]
    ) {
        self.init(name, inputs: inputs, outputs: outputs, handler: .asynchronous(handler))
    }

    /// Declares a method whose handler answers at once, from memory: it runs inside the dispatch of the call on the
    /// connection's thread, without the task an asynchronous handler needs. It must not block.
    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        synchronousHandler: @escaping @Sendable (MethodInvocation) throws -> [DBusValue]
    ) {
        self.init(name, inputs: inputs, outputs: outputs, handler: .synchronous(synchronousHandler))
    }

    /// Declares a method with either kind of handler.
    public init(_ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [], handler: Handler) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: inputs, outputs: outputs,
            body: .invocation(
                name: name, inputs: inputs.map(\.type), outputs: outputs.map(\.type), handler: handler))
    }

    /// Declares a method without arguments whose handler returns its reply encoded, kept by the server
    /// (`GetManagedObjects`).
    init(
        _ name: String, outputs: [DBusArgument],
        encodedReply handler: @escaping @Sendable (MethodCallContext) throws -> ReplyTemplate
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: [], outputs: outputs,
            body: .encoded(name: name, outputs: outputs.map(\.type), handler))
    }

    init(name: MemberName, inputs: [DBusArgument], outputs: [DBusArgument], body: MethodBody) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.body = body
    }

    /// How the server answers a call: reads its arguments, runs the handler and says what to reply.
    let body: MethodBody
}

/// One exported property.
public struct DBusProperty: Sendable {
    /// Who may read and write it over `org.freedesktop.DBus.Properties`.
    public enum Access: String, Sendable {
        case read, write, readWrite = "readwrite"
    }

    /// What `PropertiesChanged` says when the value changes (the `EmitsChangedSignal` annotation).
    public enum ChangeBehavior: String, Sendable {
        /// The new value is sent.
        case emits = "true"
        /// Only the name is sent; clients call `Get`.
        case invalidates
        /// The value never changes.
        case const
        /// No signal.
        case none = "false"
    }

    public var name: MemberName
    public var type: DBusType
    public var access: Access
    public var changeBehavior: ChangeBehavior
    public var initialValue: DBusValue
    /// For writable properties: validates a value from `Set` and returns what to store; throw to refuse.
    public var setter: (@Sendable (DBusValue, MethodInvocation) async throws -> DBusValue)?

    public init(
        _ name: String, type: DBusType, access: Access = .read, changes: ChangeBehavior = .emits,
        initial: DBusValue,
        setter: (@Sendable (DBusValue, MethodInvocation) async throws -> DBusValue)? = nil
    ) {
        precondition(initial.conforms(to: type), "the initial value of \(name) is not a \(type)")
        self.name = MemberName(constant: name)
        self.type = type
        self.access = access
        self.changeBehavior = changes
        self.initialValue = initial
        self.setter = setter
    }
}

/// One exported signal.
public struct DBusSignal: Sendable {
    public var name: MemberName
    public var arguments: [DBusArgument]

    public init(_ name: String, arguments: [DBusArgument] = []) {
        self.name = MemberName(constant: name)
        self.arguments = arguments
    }

    var signature: Signature { Signature(arguments.map(\.type)) }
}

/// An interface declared in one place: methods, properties with their change behaviour, signals.
/// Introspection XML, `Properties` and `ObjectManager` answers are all generated from it.
public struct DBusInterface: Sendable {
    public var name: InterfaceName
    public var methods: [DBusMethod]
    public var properties: [DBusProperty]
    public var signals: [DBusSignal]

    public init(
        _ name: InterfaceName, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
        signals: [DBusSignal] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    func property(named name: MemberName) -> DBusProperty? { properties.first { $0.name == name } }
}

/// A method call being handled: the message, the caller, and its arguments.
public struct MethodInvocation: Sendable {
    public let message: Message
    public let connection: BusConnection

    /// The caller's unique name.
    public var sender: BusName? { message.sender }
    /// The arguments, already checked against the method's declared signature.
    public var arguments: [DBusValue] { message.body }

    /// Decodes the arguments as typed values.
    public func decode<each T: DBusRepresentable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        try message.decode(repeat (each T).self)
    }

    /// Decodes a single argument as `T` (specialized for `T`, unlike the variadic form: see `Message+TypedDecoding`).
    @inlinable
    public func decode<T: DBusRepresentable>(_ type: T.Type) throws -> T {
        try message.decode(T.self)
    }

    /// Decodes two arguments as `A` and `B` (specialized, unlike the variadic form).
    @inlinable
    public func decode<A: DBusRepresentable, B: DBusRepresentable>(_ first: A.Type, _ second: B.Type) throws -> (A, B) {
        try message.decode(A.self, B.self)
    }
}

/// Work put before a method's handler (``DBusMethod/guarded(by:)``), such as an authorization check. It runs in the
/// call's task, after the arguments' signature was checked and before they are read and the handler runs: to refuse
/// the call it throws (the caller gets that error, the handler never runs); to let it through it returns what to run
/// once the handler has ended (an audit record), given nil when the handler succeeded or the error it threw; that runs
/// before the reply is sent.
public typealias MethodGuard = @Sendable (MethodCallContext) async throws -> @Sendable ((any Error)?) -> Void

extension DBusMethod {
    /// This method accepting calls whose arguments take at most `limit` bytes on the wire, instead of the connection's
    /// ``CallLimits/maximumBodySize``; a larger call is answered `LimitsExceeded` before anything is decoded.
    public func acceptingBodies(upTo limit: Int) -> DBusMethod {
        DBusMethod(name: name, inputs: inputs, outputs: outputs, body: body.accepting(bodiesUpTo: limit))
    }

    /// The largest body this method accepts when it differs from its connection's limit.
    public var maximumBodySize: Int? { body.maximumBodySize }

    /// This method with `check` run before its handler; see ``MethodGuard``.
    /// - Precondition: the method's handler is asynchronous (a synchronous one answers inside the dispatch, before a
    ///   check that may suspend could run): declaring a guard on one is a programming error, caught at start-up.
    public func guarded(by check: @escaping MethodGuard) -> DBusMethod {
        DBusMethod(name: name, inputs: inputs, outputs: outputs, body: body.guarded(by: check))
    }
}
