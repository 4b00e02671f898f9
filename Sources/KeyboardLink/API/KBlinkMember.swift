import KeyboardLinkDBus

/// A method's arguments as Swift types, for example `KBlinkArguments<String, UInt32>` for `(s zone, u layer)`: the
/// D-Bus types of the arguments are those of the Swift types, so a contract method's Swift signature is its D-Bus
/// signature.
public struct KBlinkArguments<each Value: DBusRepresentable>: Sendable {
    /// The arguments' D-Bus types, in order.
    public static var types: [DBusType] {
        var types: [DBusType] = []
        for type in repeat (each Value).self {
            types.append(type.dbusType)
        }
        return types
    }
}

/// The arguments of a method that takes none.
public typealias NoArguments = KBlinkArguments<>

/// What a contract method answers, as a Swift type: ``NoReply`` or ``Reply``.
public protocol KBlinkReply: Sendable {
    /// The Swift form of the answer (`Void` for none).
    associatedtype Value: Sendable
    /// The answer's D-Bus types, in order.
    static var types: [DBusType] { get }
    /// Reads the answer from a reply whose signature is ``types``'.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when it has another shape.
    static func value(of reply: Message) throws -> Value
}

/// The answer of a method that answers nothing.
public enum NoReply: KBlinkReply {
    /// Nothing.
    public typealias Value = Void
    /// No type.
    public static var types: [DBusType] { [] }
    /// Nothing to read.
    public static func value(of reply: Message) throws {}
}

/// The answer of a method that answers one value of type `Value`.
public enum Reply<Value: DBusRepresentable>: KBlinkReply {
    /// `Value`'s D-Bus type.
    public static var types: [DBusType] { [Value.dbusType] }
    /// Decodes the one value.
    public static func value(of reply: Message) throws -> Value { try reply.decode(Value.self) }
}

/// One method of the `org.kblink1` API with the Swift types of its arguments (`Input`, a ``KBlinkArguments``) and
/// of its answer (`Output`, ``NoReply`` or ``Reply``): the D-Bus signatures are derived from those types, the
/// client's call takes and returns them (`proxy.call(KBlinkContract.Keymap.diff)` is a `[DiffRow]`) and the service's
/// handler is declared with them (``KBlinkContract``).
public struct KBlinkMethod<Input: Sendable, Output: KBlinkReply>: Sendable, CustomStringConvertible {
    /// The method without its Swift types: names, D-Bus types, access; what lists of methods hold.
    public let declaration: KBlinkMethodDeclaration

    /// The interface the method belongs to.
    public var interface: InterfaceName { declaration.interface }
    /// The method's name.
    public var name: MemberName { declaration.name }
    /// Its arguments, in order.
    public var inputs: [DBusArgument] { declaration.inputs }
    /// Its results, in order.
    public var outputs: [DBusArgument] { declaration.outputs }
    /// Who may call it.
    public var access: KBlinkAccess { declaration.access }
    /// The largest call kblinkd reads (``KBlinkMethodDeclaration/maximumBodySize``).
    public var maximumBodySize: Int { declaration.maximumBodySize }
    /// The signature of the arguments (`ssus`).
    public var inputSignature: Signature { declaration.inputSignature }
    /// The signature of the results.
    public var outputSignature: Signature { declaration.outputSignature }
    /// `org.kblink1.Keymap.SetBinding(ssus)`.
    public var description: String { declaration.description }
}

extension KBlinkMethod {
    /// Describes a method; `name` is a constant of the contract (a literal, checked when it is made). The D-Bus types come from `Input` and
    /// `Output`; the names are given here, one per argument and one for a result (a count that does not match the
    /// types is a programming error). Every method says who may call it: there is no default, so a new method
    /// cannot be left open by omission.
    public init<each Argument: DBusRepresentable>(
        _ interface: InterfaceName, _ name: MemberName, inputs: [String] = [], output: String? = nil,
        access: KBlinkAccess, maximumBodySize: Int = KBlinkMethodDeclaration.defaultMaximumBodySize
    ) where Input == KBlinkArguments<repeat each Argument> {
        let inputTypes = Input.types
        let outputTypes = Output.types
        precondition(inputTypes.count == inputs.count, "\(name) names \(inputs.count) arguments of \(inputTypes.count)")
        precondition(
            outputTypes.count == (output == nil ? 0 : 1),
            "\(name) names \(output == nil ? 0 : 1) results of \(outputTypes.count)")
        declaration = KBlinkMethodDeclaration(
            interface, name, inputs: zip(inputs, inputTypes).map { DBusArgument($0, $1) },
            outputs: zip(output.map { [$0] } ?? [], outputTypes).map { DBusArgument($0, $1) }, access: access,
            maximumBodySize: maximumBodySize)
    }
}

/// One method of the `org.kblink1` API without its Swift types: its interface, name, and the names and D-Bus types of
/// its arguments and results. The service guards its handler from it (``KBlinkMethod/declaration``).
public struct KBlinkMethodDeclaration: Sendable, Equatable, CustomStringConvertible {
    /// The interface the method belongs to.
    public let interface: InterfaceName
    /// The method's name.
    public let name: MemberName
    /// Its arguments, in order.
    public let inputs: [DBusArgument]
    /// Its results, in order.
    public let outputs: [DBusArgument]
    /// Who may call it: kblinkd checks this before the handler runs (docs/dbus-api.md, "Authorization").
    public let access: KBlinkAccess
    /// The largest call, in bytes of arguments on the wire, kblinkd reads; larger ones are refused with
    /// `org.freedesktop.DBus.Error.LimitsExceeded` before anything is decoded.
    public let maximumBodySize: Int

    /// The limit of a method that does not say otherwise: far above any call of the API (a request of
    /// `ResolveInsets`, a macro's text), far below what would cost kblinkd memory.
    public static let defaultMaximumBodySize = 64 << 10

    /// Describes a method; `name` is a constant of the contract (a literal, checked when it is made).
    public init(
        _ interface: InterfaceName, _ name: MemberName, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        access: KBlinkAccess, maximumBodySize: Int = defaultMaximumBodySize
    ) {
        self.interface = interface
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.access = access
        self.maximumBodySize = maximumBodySize
    }

    /// The signature of the arguments (`ssus`).
    public var inputSignature: Signature { Signature(inputs.map(\.type)) }
    /// The signature of the results (`a{sv}`, or empty).
    public var outputSignature: Signature { Signature(outputs.map(\.type)) }

    /// `org.kblink1.Keymap.SetBinding(ssus)`.
    public var description: String { "\(interface.rawValue).\(name.rawValue)(\(inputSignature.rawValue))" }
}

/// One property of the `org.kblink1` API as the introspection declares it: its interface, name, D-Bus type, access
/// and how changes are announced. ``KBlinkProperty`` is the typed form the contract declares.
public struct KBlinkPropertyDeclaration: Sendable, Equatable {
    /// The interface the property belongs to.
    public let interface: InterfaceName
    /// The property's name.
    public let name: MemberName
    /// Its D-Bus type.
    public let type: DBusType
    /// Whether callers may write it.
    public let access: DBusProperty.Access
    /// Whether a change is announced with `PropertiesChanged` (`const` properties never change).
    public let changes: DBusProperty.ChangeBehavior
    /// For a writable property: the polkit action a caller needs to write it (reading is open to everyone).
    public let writeAction: PolkitAction?

    /// Describes a property; `name` is a constant of the contract (a literal, checked when it is made).
    /// - Parameter writableWith: the action a writer needs; required exactly when the property is writable.
    public init(
        _ interface: InterfaceName, _ name: MemberName, _ type: DBusType, access: DBusProperty.Access = .read,
        changes: DBusProperty.ChangeBehavior = .emits, writableWith writeAction: PolkitAction? = nil
    ) {
        precondition(
            (access == .read) == (writeAction == nil),
            "\(name): a writable property names the polkit action its writers need, a read-only one none")
        self.interface = interface
        self.name = name
        self.type = type
        self.access = access
        self.changes = changes
        self.writeAction = writeAction
    }
}

/// One property of the `org.kblink1` API, typed: its D-Bus type is `Value`'s, so that the daemon publishes and the
/// client reads it as a Swift value (`KBlinkProperty<Bool>` is `b`, `KBlinkProperty<[HardwareKeyboardEntry]>` is
/// `a(sss)`).
public struct KBlinkProperty<Value: DBusRepresentable>: Sendable, Equatable {
    /// What the introspection declares.
    public let declaration: KBlinkPropertyDeclaration

    /// Describes a property; `name` is a constant of the contract (a literal, checked when it is made).
    /// - Parameter writableWith: the action a writer needs; required exactly when the property is writable.
    public init(
        _ interface: InterfaceName, _ name: MemberName, access: DBusProperty.Access = .read,
        changes: DBusProperty.ChangeBehavior = .emits, writableWith writeAction: PolkitAction? = nil
    ) {
        declaration = KBlinkPropertyDeclaration(
            interface, name, Value.dbusType, access: access, changes: changes, writableWith: writeAction)
    }

    /// The interface the property belongs to.
    public var interface: InterfaceName { declaration.interface }
    /// The property's name.
    public var name: MemberName { declaration.name }

    /// The property set to `value`, for a batched update (``KeyboardLinkDBus/BusConnection/setProperties(_:of:at:)``).
    public func assigned(_ value: Value) -> KBlinkPropertyAssignment {
        KBlinkPropertyAssignment(declaration, value.dbusValue)
    }

    /// Reads the property's value from a `GetAll` answer or a `PropertiesChanged` signal: nil when it is not there.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when it holds another type.
    public func value(in properties: [String: DBusValue]) throws -> Value? {
        guard let value = properties[name.rawValue]?.unwrapped else { return nil }
        return try Value(dbusValue: value)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.declaration == rhs.declaration }
}

/// A contract property with a value, as a batched update carries it.
public struct KBlinkPropertyAssignment: Sendable, Equatable {
    /// The property.
    public let property: KBlinkPropertyDeclaration
    /// Its value, of the property's type.
    public let value: DBusValue

    /// A property and its value; the value must have the property's type.
    public init(_ property: KBlinkPropertyDeclaration, _ value: DBusValue) {
        self.property = property
        self.value = value
    }
}

/// The arguments of a signal as one Swift value: a type of this module whose fields are the signal's arguments, with
/// one codec (``PairingPromptSignal``, ``PushProgress``).
public protocol KBlinkSignalBody: Sendable {
    /// The arguments' names and D-Bus types, in order.
    static var arguments: [DBusArgument] { get }
    /// Reads a signal's body.
    /// - Throws: when it has another shape.
    init(body: [DBusValue]) throws
    /// The signal's body.
    var body: [DBusValue] { get }
}

/// One signal of the `org.kblink1` API with the Swift type of its arguments (`Body`): its D-Bus signature is the
/// body type's, kblinkd emits values of it and clients read values of it (``KBlinkSignal/body(of:)``).
public struct KBlinkSignal<Body: KBlinkSignalBody>: Sendable {
    /// The signal without its Swift type: what lists of signals hold.
    public let declaration: KBlinkSignalDeclaration

    /// Describes a signal; `name` is a constant of the contract (a literal, checked when it is made).
    public init(_ interface: InterfaceName, _ name: MemberName) {
        declaration = KBlinkSignalDeclaration(interface, name, arguments: Body.arguments)
    }

    /// The interface the signal belongs to.
    public var interface: InterfaceName { declaration.interface }
    /// The signal's name.
    public var name: MemberName { declaration.name }
    /// Its arguments, in order.
    public var arguments: [DBusArgument] { declaration.arguments }
    /// The signature of the arguments.
    public var signature: Signature { declaration.signature }

    /// The body of `message` when it is this signal (its interface and member) with this body's shape; nil
    /// otherwise.
    public func body(of message: Message) -> Body? {
        guard message.kind == .signal, message.interface == interface, message.member == name else { return nil }
        return try? Body(body: message.body)
    }
}

/// One signal of the `org.kblink1` API without its Swift type: its interface, name, and the names and D-Bus types
/// of its arguments.
public struct KBlinkSignalDeclaration: Sendable, Equatable {
    /// The interface the signal belongs to.
    public let interface: InterfaceName
    /// The signal's name.
    public let name: MemberName
    /// Its arguments, in order.
    public let arguments: [DBusArgument]

    /// Describes a signal; `name` is a constant of the contract (a literal, checked when it is made).
    public init(_ interface: InterfaceName, _ name: MemberName, arguments: [DBusArgument] = []) {
        self.interface = interface
        self.name = name
        self.arguments = arguments
    }

    /// The signature of the arguments.
    public var signature: Signature { Signature(arguments.map(\.type)) }
}
