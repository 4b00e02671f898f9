import KeyboardLinkDBus

/// One method of the `org.kblink1` API: its interface, name, and the names and D-Bus types of its arguments and
/// results. The service declares its handler from it and the client calls with it (``KBlinkContract``).
public struct KBlinkMethod: Sendable, Equatable, CustomStringConvertible {
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

    /// Describes a method; `name` is a constant of the contract, checked once. Every method says who may call it:
    /// there is no default, so a new method cannot be left open by omission.
    public init(
        _ interface: InterfaceName, _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
        access: KBlinkAccess, maximumBodySize: Int = defaultMaximumBodySize
    ) {
        self.interface = interface
        self.name = MemberName(trusted: name)
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

/// One property of the `org.kblink1` API: its interface, name, D-Bus type, access and how changes are announced.
public struct KBlinkProperty: Sendable, Equatable {
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

    /// Describes a property; `name` is a constant of the contract, checked once.
    /// - Parameter writableWith: the action a writer needs; required exactly when the property is writable.
    public init(
        _ interface: InterfaceName, _ name: String, _ type: DBusType, access: DBusProperty.Access = .read,
        changes: DBusProperty.ChangeBehavior = .emits, writableWith writeAction: PolkitAction? = nil
    ) {
        precondition(
            (access == .read) == (writeAction == nil),
            "\(name): a writable property names the polkit action its writers need, a read-only one none")
        self.interface = interface
        self.name = MemberName(trusted: name)
        self.type = type
        self.access = access
        self.changes = changes
        self.writeAction = writeAction
    }
}

/// One signal of the `org.kblink1` API: its interface, name, and the names and D-Bus types of its arguments.
public struct KBlinkSignal: Sendable, Equatable {
    /// The interface the signal belongs to.
    public let interface: InterfaceName
    /// The signal's name.
    public let name: MemberName
    /// Its arguments, in order.
    public let arguments: [DBusArgument]

    /// Describes a signal; `name` is a constant of the contract, checked once.
    public init(_ interface: InterfaceName, _ name: String, arguments: [DBusArgument] = []) {
        self.interface = interface
        self.name = MemberName(trusted: name)
        self.arguments = arguments
    }

    /// The signature of the arguments.
    public var signature: Signature { Signature(arguments.map(\.type)) }
}
