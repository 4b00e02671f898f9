import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A private dbus-daemon for one test, started from the repo's configuration file, killed by pid at the end. It
/// takes one of the ``DaemonSlots`` before it starts and gives it back when it stops.
final class TestBus: Sendable {
    let daemon: PrivateBusDaemon
    private let slot: DaemonSlot

    var address: String { daemon.address }
    var busAddress: BusAddress { .address(daemon.address) }

    init() async throws {
        slot = await DaemonSlots.shared.acquire()
        let configuration = try #require(
            Bundle.module.path(forResource: "private-bus", ofType: "conf", inDirectory: "Fixtures"))
        daemon = try PrivateBusDaemon(configurationFile: configuration)
    }

    /// A new connection to this bus.
    func connect() async throws -> BusConnection {
        try await BusConnection.connect(to: busAddress)
    }

    deinit {
        daemon.stop()
    }
}

/// Runs `body` with a fresh bus and two connections (server, client), closing everything afterwards.
func withBus<T>(
    _ body: (TestBus, BusConnection, BusConnection) async throws -> T
) async throws -> T {
    let bus = try await TestBus()
    let server = try await bus.connect()
    let client = try await bus.connect()
    do {
        let result = try await body(bus, server, client)
        await client.close()
        await server.close()
        return result
    } catch {
        await client.close()
        await server.close()
        throw error
    }
}
