import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The interfaces of each object kblinkd exports, as `GetManagedObjects` on its manager answers.
func exportedInterfaces(_ connection: BusConnection) async throws -> [ObjectPath: Set<String>] {
    let reply = try await connection.call(
        destination: KBlink.service, path: KBlink.managerPath, interface: .objectManager,
        member: MemberName("GetManagedObjects"))
    return try reply.decode([ObjectPath: [String: [String: DBusValue]]].self).mapValues { Set($0.keys) }
}

extension DaemonHarness {
    /// Waits until kblinkd exports `interface` on the object at `path` (polling `GetManagedObjects`): a test calls an
    /// interface only once it is exported, since kblinkd exports an object's interfaces one after another (a
    /// keyboard's `Keymap` after its session is open, which is after its `Keyboard`). Records an issue naming the
    /// interfaces the object had when it gives up.
    func waitForInterface(
        _ interface: InterfaceName, at path: ObjectPath, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let connection = try await bus.connect()
        await eventually(
            "\(interface.rawValue) on \(path.rawValue)", sourceLocation: sourceLocation,
            { try await exportedInterfaces(connection)[path]?.sorted() ?? [] },
            satisfies: { $0.contains(interface.rawValue) })
        await connection.close()
    }
}
