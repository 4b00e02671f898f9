import KeyboardLinkDBus

// The service side of the contract: declarations built from ``KBlinkContract``'s values, so that what the daemon
// serves has the contract's names and types by construction.

extension DBusMethod {
    /// Declares a contract method answered from the whole invocation (its arguments as ``DBusValue``s), for a handler
    /// that needs the message itself; its answer must have the contract's types.
    public init<Input, Output>(
        _ method: KBlinkMethod<Input, Output>,
        invocationHandler handler: @escaping @Sendable (MethodInvocation) async throws -> [DBusValue]
    ) {
        self.init(method.name.rawValue, inputs: method.inputs, outputs: method.outputs, handler: handler)
    }

    /// Declares a contract method with no result whose handler takes the call's context and the arguments as the
    /// contract's Swift types.
    public init<each Argument: DBusRepresentable>(
        _ method: KBlinkMethod<KBlinkArguments<repeat each Argument>, NoReply>,
        handler: @escaping @Sendable (MethodCallContext, repeat each Argument) async throws -> Void
    ) {
        self.init(method.name.rawValue, arguments: method.inputs.map(\.name), handler: handler)
        Self.check(self, against: method.declaration)
    }

    /// Declares a contract method with one result whose handler takes the call's context and the arguments, and
    /// returns the result, as the contract's Swift types.
    public init<each Argument: DBusRepresentable, Result: DBusRepresentable>(
        _ method: KBlinkMethod<KBlinkArguments<repeat each Argument>, Reply<Result>>,
        handler: @escaping @Sendable (MethodCallContext, repeat each Argument) async throws -> Result
    ) {
        self.init(
            method.name.rawValue, arguments: method.inputs.map(\.name), result: method.outputs[0].name,
            handler: handler)
        Self.check(self, against: method.declaration)
    }

    private static func check(_ declared: DBusMethod, against method: KBlinkMethodDeclaration) {
        precondition(
            declared.inputs == method.inputs && declared.outputs == method.outputs,
            "the handler of \(method) takes \(declared.inputs.map(\.type.signature)) and returns "
                + "\(declared.outputs.map(\.type.signature)), not what the contract says")
    }
}

extension DBusProperty {
    /// Declares a contract property with its initial value (and a setter for writable ones).
    public init(
        _ property: KBlinkPropertyDeclaration, initial: DBusValue,
        setter: (@Sendable (DBusValue, MethodInvocation) async throws -> DBusValue)? = nil
    ) {
        self.init(
            property.name.rawValue, type: property.type, access: property.access, changes: property.changes,
            initial: initial, setter: setter)
    }
}

extension DBusProperty {
    /// Declares a typed contract property with its initial value (and a setter for writable ones).
    public init<Value>(
        _ property: KBlinkProperty<Value>, initial: Value,
        setter: (@Sendable (DBusValue, MethodInvocation) async throws -> DBusValue)? = nil
    ) {
        self.init(property.declaration, initial: initial.dbusValue, setter: setter)
    }
}

extension DBusSignal {
    /// Declares a contract signal.
    public init(_ signal: KBlinkSignalDeclaration) {
        self.init(signal.name.rawValue, arguments: signal.arguments)
    }
}
