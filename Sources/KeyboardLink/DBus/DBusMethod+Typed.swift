/// Methods declared with Swift types: the handler takes the arguments as Swift values and returns the result as one,
/// and the method's signature comes from those types, as a ``DBusProxy`` call derives its arguments' signature.
///
/// Besides being shorter to write than a ``MethodInvocation`` handler, such a method is answered without building a
/// ``Message`` or any ``DBusValue`` array: the server finds it from the call's header fields as libdbus holds them,
/// reads the arguments straight from the received message and appends the result straight to the reply. A call whose
/// arguments have another signature gets the standard `InvalidArgs` error before the handler runs.
///
/// ```swift
/// DBusMethod("Add", arguments: ["a", "b"], result: "sum") { (a: Int32, b: Int32) in a &+ b }
/// ```
extension DBusMethod {
    /// Declares a method that answers at once, from memory, with one result: the handler runs inside the dispatch of
    /// the call on the connection's thread, without a task. It must not block.
    /// - Parameters:
    ///   - arguments: the arguments' names, as introspection shows them: one per handler parameter.
    ///   - result: the result's name.
    ///   - handler: a thrown ``DBusError`` is the reply; any other error replies `org.freedesktop.DBus.Error.Failed`.
    public init<each Argument: DBusRepresentable, Result: DBusRepresentable>(
        _ name: String, arguments: [String], result: String,
        synchronousHandler handler: @escaping @Sendable (repeat each Argument) throws -> Result
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [DBusArgument(result, Result.dbusType)],
            body: .synchronous(name: name, handler, outputs: [Result.dbusType]) { .one($0.dbusValue) })
    }

    /// Declares a method that answers at once, from memory, with no result (see the initialiser above).
    public init<each Argument: DBusRepresentable>(
        _ name: String, arguments: [String],
        synchronousHandler handler: @escaping @Sendable (repeat each Argument) throws -> Void
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [],
            body: .synchronous(name: name, handler, outputs: []) { _ in .none })
    }

    /// Declares a method whose handler may suspend, with one result: it starts inside the dispatch of the call on the
    /// connection's thread and replies when it returns.
    /// - Parameters:
    ///   - arguments: the arguments' names, as introspection shows them: one per handler parameter.
    ///   - result: the result's name.
    ///   - handler: a thrown ``DBusError`` is the reply; any other error replies `org.freedesktop.DBus.Error.Failed`.
    public init<each Argument: DBusRepresentable, Result: DBusRepresentable>(
        _ name: String, arguments: [String], result: String,
        handler: @escaping @Sendable (repeat each Argument) async throws -> Result
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [DBusArgument(result, Result.dbusType)],
            body: .asynchronous(name: name, handler, outputs: [Result.dbusType]) { .one($0.dbusValue) })
    }

    /// Declares a method whose handler may suspend, with no result (see the initialiser above).
    public init<each Argument: DBusRepresentable>(
        _ name: String, arguments: [String],
        handler: @escaping @Sendable (repeat each Argument) async throws -> Void
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [],
            body: .asynchronous(name: name, handler, outputs: []) { _ in .none })
    }

    /// Declares a method that answers at once, from memory, with one result, and whose handler is also given the
    /// call's context (its object path and caller) before its arguments.
    public init<each Argument: DBusRepresentable, Result: DBusRepresentable>(
        _ name: String, arguments: [String], result: String,
        synchronousHandler handler: @escaping @Sendable (MethodCallContext, repeat each Argument) throws -> Result
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [DBusArgument(result, Result.dbusType)],
            body: .synchronous(name: name, handler, outputs: [Result.dbusType]) { .one($0.dbusValue) })
    }

    /// Declares a method whose handler may suspend, with one result, and is also given the call's context (its object
    /// path and caller) before its arguments.
    public init<each Argument: DBusRepresentable, Result: DBusRepresentable>(
        _ name: String, arguments: [String], result: String,
        handler: @escaping @Sendable (MethodCallContext, repeat each Argument) async throws -> Result
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [DBusArgument(result, Result.dbusType)],
            body: .asynchronous(name: name, handler, outputs: [Result.dbusType]) { .one($0.dbusValue) })
    }

    /// Declares a method whose handler may suspend, with no result, and is also given the call's context (its object
    /// path and caller) before its arguments.
    public init<each Argument: DBusRepresentable>(
        _ name: String, arguments: [String],
        handler: @escaping @Sendable (MethodCallContext, repeat each Argument) async throws -> Void
    ) {
        let name = MemberName(constant: name)
        self.init(
            name: name, inputs: Self.declaredArguments(arguments, dbusTypes(of: repeat (each Argument).self)),
            outputs: [],
            body: .asynchronous(name: name, handler, outputs: []) { _ in .none })
    }

    /// Pairs the declared names with the handler's types; a declaration that names more or fewer arguments than the
    /// handler takes is a programming error.
    private static func declaredArguments(_ names: [String], _ types: [DBusType]) -> [DBusArgument] {
        precondition(
            names.count == types.count,
            "a typed method names \(names.count) arguments but its handler takes \(types.count)")
        return zip(names, types).map { DBusArgument($0, $1) }
    }
}

/// Where a typed method was called and by whom: what a handler that serves several objects, or answers per caller,
/// needs besides its arguments.
public struct MethodCallContext: Sendable {
    /// The object the call was made on.
    public let path: ObjectPath
    /// The caller's unique name.
    public let sender: BusName?
    /// The connection the call came in on.
    public let connection: BusConnection
    /// Whether the caller set `ALLOW_INTERACTIVE_AUTHORIZATION`: it will wait while polkit asks the person.
    public let allowsInteractiveAuthorization: Bool
    /// For a guard (``MethodGuard``): the call's first argument when it is a string of at most
    /// ``leadingTextLimit`` bytes, read in place with nothing else decoded, so that a check can name it in polkit's
    /// details (`Pair`'s device); nil otherwise, and always nil for a handler.
    public internal(set) var leadingText: String?
    /// The longest first argument ``leadingText`` carries.
    public static let leadingTextLimit = 256

    init(path: ObjectPath, sender: BusName?, connection: BusConnection, allowsInteractiveAuthorization: Bool = false) {
        self.path = path
        self.sender = sender
        self.connection = connection
        self.allowsInteractiveAuthorization = allowsInteractiveAuthorization
    }

    /// The context of a call given to a ``MethodInvocation`` handler.
    package init(_ invocation: MethodInvocation) {
        self.init(
            path: invocation.message.path ?? .root, sender: invocation.sender, connection: invocation.connection,
            allowsInteractiveAuthorization: invocation.message.allowsInteractiveAuthorization)
    }
}
