import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Waits until the process `pid` holds a match rule containing `text` on the bus at `address` (dbus-daemon's
/// `org.freedesktop.DBus.Debug.Stats.GetAllMatchRules`, which the test buses answer): a child that prints nothing
/// once it has subscribed, such as `kblink watch --json`, is acted on only after it has. Records an issue naming
/// the rules it last saw when it gives up.
func waitForSubscription(
    onBus address: String, process pid: Int32, containing text: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let connection = try await BusConnection.connect(to: .address(address))
    let busPath = ObjectPath("/org/freedesktop/DBus")
    @Sendable func rulesOfProcess() async throws -> [String] {
        let names = try await connection.call(
            destination: .messageBus, path: busPath, interface: .dbus, member: MemberName("ListNames")
        ).decode([String].self)
        let all = try await connection.call(
            destination: .messageBus, path: busPath, interface: InterfaceName("org.freedesktop.DBus.Debug.Stats"),
            member: MemberName("GetAllMatchRules")
        ).decode([String: [String]].self)
        var rules: [String] = []
        for name in names where name.hasPrefix(":") {
            let owner = try? await connection.call(
                destination: .messageBus, path: busPath, interface: .dbus,
                member: MemberName("GetConnectionUnixProcessID"), [.string(name)]
            ).decode(UInt32.self)
            if owner == UInt32(pid) { rules += all[name] ?? [] }
        }
        return rules
    }
    await eventually(
        "process \(pid) subscribed to \(text)", sourceLocation: sourceLocation, rulesOfProcess,
        satisfies: { $0.contains { $0.contains(text) } })
    await connection.close()
}
