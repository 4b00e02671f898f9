import KeyboardLinkDBus

// The service side of the contract, after start-up: property updates and signals sent with ``KBlinkContract``'s
// values, so that what the daemon publishes has the contract's names and interfaces by construction.

extension BusConnection {
    /// Emits a contract signal from an object.
    /// - Parameters:
    ///   - body: the signal's arguments, as the contract's Swift type.
    ///   - destination: the only connection it goes to (a unicast signal, for what others must not see); nil sends
    ///     it to every subscriber.
    public func emit<Body>(
        _ signal: KBlinkSignal<Body>, at path: ObjectPath, _ body: Body, to destination: BusName? = nil
    ) async throws {
        try await emitSignal(signal.name, of: signal.interface, at: path, body.body, to: destination)
    }

    /// Updates one contract property of an exported object; `PropertiesChanged` follows when the value differs.
    /// - Throws: ``DBusError`` when the object does not export the property's interface, or the value has another
    ///   type.
    public func setProperty<Value>(_ property: KBlinkProperty<Value>, at path: ObjectPath, to value: Value)
        async throws
    {
        try await setProperty(property.name, of: property.interface, at: path, to: value.dbusValue)
    }

    /// Updates contract properties of one interface together: readers see all of them change at once, in one
    /// `PropertiesChanged`.
    /// - Parameter interface: the interface every property belongs to (a property of another is a programming
    ///   error).
    public func setProperties(
        _ values: [KBlinkPropertyAssignment], of interface: InterfaceName, at path: ObjectPath
    ) async throws {
        var named: [(MemberName, DBusValue)] = []
        named.reserveCapacity(values.count)
        for assignment in values {
            let property = assignment.property
            precondition(property.interface == interface, "\(property.name) is not a property of \(interface)")
            named.append((property.name, assignment.value))
        }
        try await setProperties(named, of: interface, at: path)
    }

    /// The current value of an exported contract property, nil when the object does not export it.
    public func property<Value>(_ property: KBlinkProperty<Value>, at path: ObjectPath) async -> Value? {
        guard let value = await self.property(property.name, of: property.interface, at: path) else { return nil }
        return try? Value(dbusValue: value.unwrapped)
    }
}
