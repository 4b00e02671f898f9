import KeyboardLinkDBus

// The client side of the contract: calls made with ``KBlinkContract``'s values, their arguments checked before they
// leave and their replies checked against the contract's result types. An error reply with one of the API's names
// throws a ``KBlinkError``; any other stays the ``DBusError`` it arrived as.

extension DBusProxy {
    /// Calls a contract method on this proxy's object with its arguments as Swift values, and answers its result as
    /// one (nothing for a method without a result).
    /// - Parameters:
    ///   - method: the method, from ``KBlinkContract``; its interface is used whatever the proxy's.
    ///   - arguments: the arguments, of the method's Swift types.
    /// - Throws: ``KBlinkError`` from the daemon, ``DBusError`` from the bus; `InvalidArgs` when the reply does not
    ///   have the contract's types (a daemon of another version).
    @discardableResult
    public func call<each Argument: DBusRepresentable, Output: KBlinkReply>(
        _ method: KBlinkMethod<KBlinkArguments<repeat each Argument>, Output>, _ arguments: repeat each Argument,
        timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> Output.Value {
        var values: [DBusValue] = []
        for argument in repeat each arguments {
            values.append(argument.dbusValue)
        }
        return try Output.value(of: try await call(method.declaration, values, timeout: timeout))
    }

    /// Calls a contract method with arguments given as ``DBusValue``s (for what no Swift type says: a test's
    /// malformed call).
    /// - Returns: the reply, whose signature is the contract's.
    /// - Throws: ``KBlinkError`` from the daemon, ``DBusError`` from the bus; `InvalidArgs` when the arguments or the
    ///   reply do not have the contract's types (a daemon of another version).
    @discardableResult
    public func call(
        _ method: KBlinkMethodDeclaration, _ arguments: [DBusValue], timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> Message {
        guard arguments.count == method.inputs.count,
            zip(arguments, method.inputs).allSatisfy({ $0.conforms(to: $1.type) })
        else {
            throw DBusError.invalidArgs(
                "\(method.name.rawValue) takes '\(method.inputSignature.rawValue)', "
                    + "not '\(Signature(arguments.map(\.type)).rawValue)'")
        }
        let reply = try await KBlinkError.typing {
            try await connection.call(
                destination: destination, path: path, interface: method.interface, member: method.name, arguments,
                timeout: timeout)
        }
        guard reply.signature == method.outputSignature else {
            throw DBusError.invalidArgs(
                "\(method.name.rawValue) answered '\(reply.signature.rawValue)', not "
                    + "'\(method.outputSignature.rawValue)': is kblinkd of another version?")
        }
        return reply
    }

    /// Reads a contract property of this proxy's object.
    /// - Throws: ``KBlinkError`` from the daemon, ``DBusError`` from the bus.
    public func property<Value>(_ property: KBlinkProperty<Value>) async throws -> Value {
        let proxy = DBusProxy(
            connection: connection, destination: destination, path: path, interface: property.interface)
        return try await KBlinkError.typing { try await proxy.property(property.name, as: Value.self) }
    }

    /// Writes a contract property of this proxy's object.
    /// - Throws: ``KBlinkError`` from the daemon (a value its setter refuses), ``DBusError`` from the bus.
    public func setProperty<Value>(_ property: KBlinkProperty<Value>, to value: Value) async throws {
        let proxy = DBusProxy(
            connection: connection, destination: destination, path: path, interface: property.interface)
        try await KBlinkError.typing { try await proxy.setProperty(property.name, to: value.dbusValue) }
    }
}

extension Dictionary where Key == String, Value == DBusValue {
    /// The value of a contract property in a `GetAll` answer or a `PropertiesChanged` signal.
    public subscript<Property>(_ property: KBlinkProperty<Property>) -> DBusValue? { self[property.name.rawValue] }
}

extension BusConnection {
    /// A contract signal as it arrives, with the object it came from.
    public struct Received<Body: KBlinkSignalBody>: Sendable {
        /// The object that emitted it.
        public var path: ObjectPath
        /// Its arguments, as the contract's Swift type.
        public var body: Body
    }

    /// Subscribes to a contract signal from kblinkd: each one as a value of its body type (one of another shape is
    /// skipped). The stream ends when the connection closes.
    /// - Parameter path: the only object to hear from; nil for every object.
    public func signals<Body>(_ signal: KBlinkSignal<Body>, at path: ObjectPath? = nil) async throws
        -> AsyncStream<Received<Body>>
    {
        let messages = try await subscribe(
            to: MatchRule(sender: KBlink.service, path: path, interface: signal.interface, member: signal.name))
        let (stream, continuation) = AsyncStream<Received<Body>>.makeStream()
        let forwarder = Task {
            for await message in messages {
                guard let body = signal.body(of: message), let path = message.path else { continue }
                continuation.yield(Received(path: path, body: body))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarder.cancel() }
        return stream
    }
}

extension KBlinkError {
    /// Runs a call to kblinkd, throwing an error reply that carries one of the API's names as a ``KBlinkError``.
    static func typing<Result>(_ call: () async throws -> Result) async throws -> Result {
        do {
            return try await call()
        } catch let error as DBusError {
            if let typed = KBlinkError(error) { throw typed }
            throw error
        }
    }
}
