import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A private bus, a simulated BlueZ that plays the keyboards' input devices too (``SimulatedInputDevices``), and
/// kblinkd's service watching those input devices with an evdev monitor, as kblinkd watches `/dev/input`.
final class HealthDaemon: RestartableDaemon, Sendable {
    let bus: TestBus
    let bluez: SimulatedBlueZ
    let inputDevices: SimulatedInputDevices
    let runner: RestartableService
    private let feed = Mutex<Task<Void, Never>?>(nil)

    struct MonitorNeverReported: Error, CustomStringConvertible {
        var description: String { "the evdev monitor never reported the input devices to the service" }
    }

    /// Short deadlines, so that a whole ladder runs in a few seconds; long enough for the evdev monitor to see a
    /// node under a loaded machine's scheduling.
    static let fastHealth = HealthSettings(
        deadline: .milliseconds(1500), budget: 3, backoff: .milliseconds(50), powerCycleAdapter: false)
    /// A deadline no test reaches: for keyboards that must never be healed.
    static let patientHealth = HealthSettings(deadline: .seconds(120), budget: 3, backoff: .milliseconds(50))

    init(
        devices: [SimulatedDevice], health: HealthSettings = HealthDaemon.fastHealth,
        configure: @escaping @Sendable (inout KeyboardLinkService.Options) -> Void = { _ in }
    ) async throws {
        bus = try await TestBus()
        inputDevices = try SimulatedInputDevices.temporary()
        bluez = SimulatedBlueZ(bus: bus.busAddress, devices: devices)
        await bluez.setInputDevices(inputDevices)
        try await bluez.start()
        runner = try RestartableService(
            bus: bus, stateDirectory: NSTemporaryDirectory() + "kblink-health-" + UUID().uuidString,
            configure: {
                $0.health = health
                $0.readsKeymapOnConnect = false
                configure(&$0)
            })
        try await runner.start()
        let service = try runner.service
        let evdev = EvdevPresenceFeed(
            devicesPath: inputDevices.devicesPath, directory: inputDevices.directory,
            sysfsRoot: inputDevices.sysfsRoot)
        let logger = Logger(threshold: .error, sink: LogSink { _ in })
        feed.withLock { $0 = Task { await evdev.run(into: service, logger: logger) } }
        // Until the monitor's first report reaches the service, a connected keyboard counts as working ("input
        // devices are not watched"): a test that waited for working could go on before any healing began.
        guard await eventually({ await service.inputDevicesReported() }) else {
            await shutDown()
            throw MonitorNeverReported()
        }
    }

    /// Runs `kblink`'s command line in this process against this bus.
    func kblink(_ arguments: [String]) async throws -> ProcessResult {
        await InProcessKBlink.run(arguments + ["--bus", bus.address])
    }

    /// A client of the service on the test bus.
    func client() async throws -> KBlinkClient {
        try await KBlinkClient.connect(to: bus.busAddress)
    }

    /// The keyboard's `Health`, as `ListKeyboards` answers it.
    func health(_ address: BluetoothAddress) async throws -> KeyboardHealth? {
        let client = try await client()
        defer { Task { await client.close() } }
        return try await client.keyboards().first { $0.address == address.description }?.health
    }

    /// Waits until the keyboard's health is `expected` and kblinkd has nothing more to do for it.
    func settles(_ address: BluetoothAddress, at expected: KeyboardHealth) async throws -> Bool {
        let service = try service
        return await eventually {
            guard (try? await self.health(address)) == expected else { return false }
            return await !service.healthIsPending(address)
        }
    }

    /// The keyboard's `Health` property with its detail, heals and reconnect times.
    func report(_ address: BluetoothAddress) async throws -> KeyboardHealthReport {
        let client = try await client()
        defer { Task { await client.close() } }
        return try await client.healthReport(of: try await client.keyboard(matching: address.description))
    }

    /// The service's log lines about the keyboard's health.
    func healthLines(_ address: BluetoothAddress) -> [String] {
        logLines.map(\.1).filter { $0.hasPrefix("health of ") && $0.contains(address.description) }
    }

    func shutDown() async {
        feed.withLock { $0 }?.cancel()
        await stopService()
        await bluez.kill()
        inputDevices.delete()
        try? FileManager.default.removeItem(atPath: runner.stateDirectory)
    }
}

/// Runs `body` with a ``HealthDaemon``, shutting it down afterwards.
func withHealthDaemon<T>(
    devices: [SimulatedDevice], health: HealthSettings = HealthDaemon.fastHealth,
    _ body: (HealthDaemon) async throws -> T
) async throws -> T {
    let daemon = try await HealthDaemon(devices: devices, health: health)
    do {
        let result = try await body(daemon)
        await daemon.shutDown()
        return result
    } catch {
        await daemon.shutDown()
        throw error
    }
}
