/// A typed handle on one interface of one remote object.
public struct DBusProxy: Sendable {
    public let connection: BusConnection
    public let destination: BusName
    public let path: ObjectPath
    public let interface: InterfaceName

    public init(connection: BusConnection, destination: BusName, path: ObjectPath, interface: InterfaceName) {
        self.connection = connection
        self.destination = destination
        self.path = path
        self.interface = interface
    }

    /// Calls a method of the interface.
    /// - Throws: ``DBusError`` from the peer, or `NoReply` after `timeout`.
    @discardableResult
    public func call(
        _ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> Message {
        try await connection.call(
            destination: destination, path: path, interface: interface, member: member, arguments, timeout: timeout)
    }

    /// Calls a method and decodes its reply as the given types.
    public func call<each T: DBusRepresentable>(
        _ member: MemberName, _ arguments: [DBusValue] = [], returning types: repeat (each T).Type,
        timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> (repeat each T) {
        let reply = try await call(member, arguments, timeout: timeout)
        return try reply.decode(repeat (each T).self)
    }

    /// Calls a method and decodes its one-value reply as `T` (specialized for `T`, unlike the variadic form).
    @inlinable
    public func call<T: DBusRepresentable>(
        _ member: MemberName, _ arguments: [DBusValue] = [], returning type: T.Type,
        timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> T {
        let reply = try await call(member, arguments, timeout: timeout)
        return try reply.decode(T.self)
    }

    /// Reads one property (`org.freedesktop.DBus.Properties.Get`).
    public func property(_ name: MemberName) async throws -> DBusValue {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Get",
            [.string(interface.rawValue), .string(name.rawValue)])
        return try reply.decode(DBusValue.self)
    }

    /// Reads one property as a typed value.
    public func property<T: DBusRepresentable>(_ name: MemberName, as type: T.Type) async throws -> T {
        try T(dbusValue: try await property(name))
    }

    /// Writes one property (`org.freedesktop.DBus.Properties.Set`).
    public func setProperty(_ name: MemberName, to value: DBusValue) async throws {
        _ = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "Set",
            [.string(interface.rawValue), .string(name.rawValue), .variant(value)])
    }

    /// Reads every property (`GetAll`), with the reply's serial for ordering against signals.
    public func allProperties() async throws -> (values: [String: DBusValue], serial: UInt32) {
        let reply = try await connection.call(
            destination: destination, path: path, interface: .properties, member: "GetAll",
            [.string(interface.rawValue)])
        let values = try reply.decode([String: DBusValue].self)
        return (values, reply.serial)
    }

    /// Signals of this interface from this object.
    public func signals(_ member: MemberName? = nil) async throws -> SignalStream {
        try await connection.subscribe(
            to: MatchRule(sender: destination, path: path, interface: interface, member: member))
    }
}
