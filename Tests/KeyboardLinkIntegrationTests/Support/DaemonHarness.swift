import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A private bus with a simulated BlueZ and kblinkd's service running in this process, plus helpers to run the
/// real `kblink` binary against it.
final class DaemonHarness: Sendable {
    let bus: TestBus
    let bluez: SimulatedBlueZ
    let service: KeyboardLinkService
    let serviceConnection: BusConnection
    let stateDirectory: String

    /// The service's log lines, collected (level, message).
    final class Log: Sendable {
        let lines = Mutex<[(LogLevel, String)]>([])

        init() {}

        /// The lines so far.
        var entries: [(LogLevel, String)] { lines.withLock { $0 } }
    }

    init(
        devices: [SimulatedDevice]? = nil, adapterCount: Int = 1,
        options: (inout KeyboardLinkService.Options) -> Void = { _ in }, log: Log? = nil
    )
        async throws
    {
        bus = try await TestBus()
        if let devices {
            bluez = SimulatedBlueZ(bus: bus.busAddress, adapterCount: adapterCount, devices: devices)
        } else {
            bluez = SimulatedBlueZ.demo(bus: bus.busAddress)
        }
        await bluez.setDiscoveryDelay(.milliseconds(100))
        try await bluez.start()
        stateDirectory = NSTemporaryDirectory() + "kblink-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        var serviceOptions = KeyboardLinkService.Options(stateDirectory: stateDirectory)
        // The simulated keyboards answer at once, but the suite runs hundreds of tests on 2 cores: a generous
        // request timeout keeps a loaded moment from reading as a sleeping keyboard.
        serviceOptions.studioRequestTimeout = .seconds(60)
        options(&serviceOptions)
        serviceConnection = try await bus.connect()
        service = KeyboardLinkService(
            connection: serviceConnection, options: serviceOptions,
            log: { level, line in log?.lines.withLock { $0.append((level, line)) } })
        try await service.start()
    }

    /// A client of the daemon.
    func client() async throws -> KBlinkClient {
        try await KBlinkClient.connect(to: bus.busAddress)
    }

    func shutDown() async {
        await service.stop()
        await serviceConnection.close()
        await bluez.kill()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }

    /// Runs `kblink`'s command line in this process with `--bus` set to this bus.
    func kblink(_ arguments: [String]) async throws -> ProcessResult {
        await InProcessKBlink.run(arguments + ["--bus", bus.address])
    }

    /// Runs the built `kblink` binary with `--bus` set to this bus.
    func kblinkBinary(_ arguments: [String], timeout: Duration = waitDeadline) async throws -> ProcessResult {
        try await runProcess(Self.binary("kblink"), arguments + ["--bus", bus.address], timeout: timeout)
    }

    /// The path of a product built beside the test bundle.
    static func binary(_ name: String) -> String {
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidate = bundle.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // swift test runs the bundle from .build/<triple>/debug.
        return RepositoryFiles.path(".build/debug/\(name)")
    }
}

/// Runs `body` with a harness, shutting it down afterwards.
func withDaemon<T>(
    devices: [SimulatedDevice]? = nil, adapterCount: Int = 1,
    options: (inout KeyboardLinkService.Options) -> Void = { _ in }, log: DaemonHarness.Log? = nil,
    _ body: (DaemonHarness) async throws -> T
) async throws -> T {
    let harness = try await DaemonHarness(devices: devices, adapterCount: adapterCount, options: options, log: log)
    do {
        let result = try await body(harness)
        await harness.shutDown()
        return result
    } catch {
        await harness.shutDown()
        throw error
    }
}
