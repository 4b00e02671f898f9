import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A private bus, a simulated BlueZ and kblinkd's service with a log the test reads, restartable on the same state
/// directory, with VIA keyboards reached through the links the test gives (set before the service starts, so that
/// the connections seen at start find them too).
final class ReapplyDaemon: RestartableDaemon, Sendable {
    let bus: TestBus
    let bluez: SimulatedBlueZ
    let viaLinks: VIADriverLinks?
    let runner: RestartableService

    init(devices: [SimulatedDevice], viaLinks: VIADriverLinks? = nil) async throws {
        bus = try await TestBus()
        bluez = SimulatedBlueZ(bus: bus.busAddress, devices: devices)
        try await bluez.start()
        self.viaLinks = viaLinks
        runner = try RestartableService(
            bus: bus, stateDirectory: NSTemporaryDirectory() + "kblink-reapply-" + UUID().uuidString,
            configure: { options in
                options.reapplyUnlockTimeout = .seconds(60)
                options.studioRequestTimeout = .seconds(60)
                // The Studio firmware attaches after the keyboard connected: a read then would wait a minute for it.
                options.readsKeymapOnConnect = false
            },
            prepare: { service in
                if let viaLinks { await service.pushes.setVIALinks(viaLinks) }
            })
        try await runner.start()
    }

    /// Waits until the service logged `occurrence` lines containing `text`; returns the level of that line.
    func waitForLog(_ text: String, occurrence: Int = 1, timeout: Duration = .seconds(60)) async -> LogLevel? {
        _ = await eventually(timeout: timeout) { self.logCount(text) >= occurrence }
        let matching = logLines.filter { $0.1.contains(text) }
        return matching.count >= occurrence ? matching[occurrence - 1].0 : nil
    }

    /// How many logged lines contain `text`.
    func logCount(_ text: String) -> Int {
        logLines.count { $0.1.contains(text) }
    }

    /// Disconnects the keyboard, waits until the daemon shows it disconnected, runs `whileAway`, reconnects it.
    func reconnect(
        _ address: BluetoothAddress, whileAway: () async throws -> Void = {}
    ) async throws {
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        try await bluez.setConnected(address, false)
        #expect(
            await eventually {
                (try? await client.keyboard(matching: address.description).connected) == false
            })
        try await whileAway()
        try await bluez.setConnected(address, true)
        await client.close()
    }

    func shutDown() async {
        await stopService()
        await bluez.kill()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}

/// Runs `body` with a ``ReapplyDaemon`` and a client on the keymap of `address`, shutting both down afterwards.
func withReapplyDaemon<T>(
    devices: [SimulatedDevice], viaLinks: VIADriverLinks? = nil, keymapOf address: BluetoothAddress,
    _ body: (ReapplyDaemon, KeymapClient) async throws -> T
) async throws -> T {
    let daemon = try await ReapplyDaemon(devices: devices, viaLinks: viaLinks)
    do {
        // The keyboard was connected at start: wait for that connection's decision (no profile yet, so off), so
        // that it cannot act on what the test does next.
        #expect(await daemon.waitForLog("apply on connect is off") == .debug)
        let connection = try await daemon.bus.connect()
        defer { Task { await connection.close() } }
        let result = try await body(daemon, KeymapClient(connection: connection, path: KBlink.keyboardPath(address)))
        await daemon.shutDown()
        return result
    } catch {
        await daemon.shutDown()
        throw error
    }
}
