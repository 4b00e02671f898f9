import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDBus

/// Match rules live exactly as long as the subscriptions that need them, including the internal `NameOwnerChanged`
/// subscription that follows the owner of a well-known name a subscription filters on.
@Suite("Subscriptions: match rules leave the bus with the last subscription that needs them")
struct SubscriptionLifetimeTests {
    /// How many match rules the bus holds for `connection` (dbus-daemon's `Debug.Stats`).
    func matchRules(of connection: BusConnection, askingWith asker: BusConnection) async throws -> UInt32 {
        let reply = try await asker.call(
            destination: .messageBus, path: ObjectPath("/org/freedesktop/DBus"),
            interface: InterfaceName("org.freedesktop.DBus.Debug.Stats"),
            member: MemberName("GetConnectionStats"), [.string(connection.uniqueName.rawValue)])
        let stats = try reply.decode([String: DBusValue].self)
        guard case .uint32(let rules) = stats["MatchRules"]?.unwrapped else {
            throw DBusError.failed("no MatchRules in \(stats.keys.sorted())")
        }
        return rules
    }

    @Test("the owner of a well-known name is followed while a subscription filters on it, and not after")
    func ownerTrackingEnds() async throws {
        try await withBus { _, server, client in
            let name = BusName("com.example.Tracked")
            try await server.requestName(name)
            let rulesBefore = try await matchRules(of: client, askingWith: server)
            let rule = MatchRule(sender: name, interface: EchoService.interface)
            var first: SignalStream? = try await client.subscribe(to: rule)
            var second: SignalStream? = try await client.subscribe(to: rule)
            // Two subscriptions and the internal one that follows the name's owner.
            #expect(try await matchRules(of: client, askingWith: server) == rulesBefore + 3)
            #expect(await client.onQueue { client.ownerTrackers.count } == 1)

            first = nil
            #expect(try await eventually { try await matchRules(of: client, askingWith: server) == rulesBefore + 2 })
            #expect(await client.onQueue { client.ownerTrackers.count } == 1, "the second still filters on the name")

            second = nil
            #expect(try await eventually { try await matchRules(of: client, askingWith: server) == rulesBefore })
            let leftovers = await client.onQueue {
                (client.subscriptions.count, client.ownerTrackers.count, client.nameOwners.count)
            }
            #expect(leftovers == (0, 0, 0))
            _ = (first, second)
        }
    }

    @Test("a new subscription after the tracking ended follows the owner again")
    func trackingStartsAgain() async throws {
        try await withBus { _, server, client in
            let name = BusName("com.example.Tracked")
            try await server.requestName(name)
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let rule = MatchRule(sender: name, path: EchoService.path, interface: EchoService.interface)
            var dropped: SignalStream? = try await client.subscribe(to: rule)
            dropped = nil
            #expect(await eventually { await client.onQueue { client.ownerTrackers.isEmpty } })
            let pings = try await client.subscribe(to: rule)
            try await server.emitSignal(
                MemberName("Pinged"), of: EchoService.interface, at: EchoService.path, [.uint32(7)])
            #expect(await first(of: pings)?.body == [.uint32(7)])
            _ = dropped
        }
    }
}
