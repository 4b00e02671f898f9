extension BusConnection {
    /// Exports an interface at a path. Under an ObjectManager, `InterfacesAdded` is emitted.
    /// - Throws: ``DBusError`` when the interface is already exported there.
    public func export(_ interface: DBusInterface, at path: ObjectPath) async throws {
        let result: Result<Void, DBusError> = await onQueue {
            catchingDBusError { try self.objectServer.export(interface, at: path) }
        }
        try result.get()
    }

    /// Removes one interface, or all of them when `interface` is nil. Under an ObjectManager,
    /// `InterfacesRemoved` is emitted.
    public func unexport(_ interface: InterfaceName? = nil, at path: ObjectPath) async {
        await onQueue { self.objectServer.unexport(interface, at: path) }
    }

    /// Serves `org.freedesktop.DBus.ObjectManager` at `path` for every object below it.
    public func addObjectManager(at path: ObjectPath) async {
        await onQueue { _ = self.objectServer.managers.insert(path) }
    }

    /// Updates a property; emits `PropertiesChanged` when the value differs and the declaration says so.
    /// - Throws: ``DBusError`` for an unknown property or a value of the wrong type.
    public func setProperty(_ name: MemberName, of interface: InterfaceName, at path: ObjectPath, to value: DBusValue)
        async throws
    {
        let result: Result<Void, DBusError> = await onQueue {
            catchingDBusError { try self.objectServer.setProperty(name, of: interface, at: path, to: value) }
        }
        try result.get()
    }

    /// Updates several properties of one interface at once: readers see all of them change together, and one
    /// `PropertiesChanged` carries every change the declarations announce.
    /// - Throws: ``DBusError`` for an unknown property or a value of the wrong type (then nothing changes).
    public func setProperties(_ values: [(MemberName, DBusValue)], of interface: InterfaceName, at path: ObjectPath)
        async throws
    {
        let values = values.map { SendableProperty(name: $0.0, value: $0.1) }
        let result: Result<Void, DBusError> = await onQueue {
            catchingDBusError {
                try self.objectServer.setProperties(values.map { ($0.name, $0.value) }, of: interface, at: path)
            }
        }
        try result.get()
    }

    /// Updates a property without emitting `PropertiesChanged`: readers see the new value, nobody is told. Only for
    /// simulating peers that do this (bluetoothd can mark a device connected without announcing it).
    /// - Throws: ``DBusError`` for an unknown property or a value of the wrong type.
    public func setPropertyWithoutSignal(
        _ name: MemberName, of interface: InterfaceName, at path: ObjectPath, to value: DBusValue
    ) async throws {
        let result: Result<Void, DBusError> = await onQueue {
            catchingDBusError {
                try self.objectServer.setProperties([(name, value)], of: interface, at: path, announce: false)
            }
        }
        try result.get()
    }

    /// The current value of an exported property.
    public func property(_ name: MemberName, of interface: InterfaceName, at path: ObjectPath) async -> DBusValue? {
        await onQueue { self.objectServer.property(name, of: interface, at: path) }
    }

    /// Emits a signal from an object.
    public func emitSignal(
        _ member: MemberName, of interface: InterfaceName, at path: ObjectPath, _ body: [DBusValue] = [],
        to destination: BusName? = nil
    ) async throws {
        try await send(.signal(path: path, interface: interface, member: member, body: body, destination: destination))
    }

    /// The introspection XML served for `path`.
    public func introspectionXML(for path: ObjectPath) async -> String {
        await onQueue { self.objectServer.introspectionXML(for: path) }
    }
}

/// Runs `body`, turning any error into a ``DBusError`` result so it can cross to another thread.
func catchingDBusError(_ body: () throws -> Void) -> Result<Void, DBusError> {
    do {
        try body()
        return .success(())
    } catch let error as any DBusErrorRepresentable {
        return .failure(error.dbusError)
    } catch {
        return .failure(.failed("\(error)"))
    }
}

/// A property name and value carried to the connection's loop (tuples are not `Sendable`).
private struct SendableProperty: Sendable {
    let name: MemberName
    let value: DBusValue
}
