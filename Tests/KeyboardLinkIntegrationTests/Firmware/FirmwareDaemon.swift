import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A private bus, a simulated BlueZ and kblinkd's service with a state directory the test chooses and a log the
/// test reads; the service can be restarted on the same state directory (to test the cache loaded at start).
final class FirmwareDaemon: RestartableDaemon, Sendable {
    let bus: TestBus
    let bluez: SimulatedBlueZ
    let runner: RestartableService

    /// Starts the bus and the simulated BlueZ with `devices`, and the service on `stateDirectory` (a fresh one
    /// when nil).
    init(
        devices: [SimulatedDevice], stateDirectory: String? = nil, experimental: Bool = false,
        configure: @escaping @Sendable (inout KeyboardLinkService.Options) -> Void = { _ in }
    ) async throws {
        bus = try await TestBus()
        bluez = SimulatedBlueZ(bus: bus.busAddress, devices: devices)
        await bluez.setExperimental(experimental)
        try await bluez.start()
        runner = try RestartableService(
            bus: bus, stateDirectory: stateDirectory ?? NSTemporaryDirectory() + "kblink-fw-" + UUID().uuidString,
            configure: {
                $0.batteryProvider = experimental
                // These tests change what the keyboard serves and refresh at once: every RefreshInfo reads.
                $0.firmwareRefreshWindow = .zero
                configure(&$0)
            })
        try await runner.start()
    }

    /// Runs `kblink`'s command line in this process against this bus.
    func kblink(_ arguments: [String]) async throws -> ProcessResult {
        await InProcessKBlink.run(arguments + ["--bus", bus.address])
    }

    /// `kblink info DEVICE --json [extra]`, decoded; `status` is the exit code expected (1 when a `--refresh`
    /// asked for does not happen).
    func infoJSON(_ device: String, _ extra: [String] = [], status: Int32 = 0) async throws -> [String: Any] {
        let result = try await kblink(["info", device, "--json"] + extra)
        #expect(result.status == status, "kblink info: \(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(result.standardOutput)")
    }

    /// The cache file of a keyboard.
    func cacheFile(_ address: BluetoothAddress) -> String {
        FirmwareCache(stateDirectory: stateDirectory).path(for: address)
    }

    /// Waits until a refresh of `address` (read after `after`, when given) is over and its result is exported.
    func waitForRead(_ address: BluetoothAddress, after: WallClockTime? = nil, timeout: Duration = waitDeadline)
        async throws
        -> Bool
    {
        let service = try service
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        defer { Task { await client.close() } }
        return await eventually(timeout: timeout) {
            guard let info = await service.firmwareInfo(for: address), await !service.isRefreshingFirmware(address),
                after.map({ info.readAt.seconds(since: $0) >= -1 }) ?? true,
                let keyboard = try? await client.keyboard(matching: address.description)
            else { return false }
            return keyboard.firmware[FirmwareSummary.Key.readAt] == info.readAt.iso8601
        }
    }

    func shutDown() async {
        await stopService()
        await bluez.kill()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}

/// A monotonic clock that stands still until a test moves it (`KeyboardLinkService.Options.monotonicNow`).
final class SteppedClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex<Duration>(.zero)

    /// The time now.
    var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in start + offset.withLock { $0 } }
    }

    /// Moves the clock forward.
    func advance(by duration: Duration) {
        offset.withLock { $0 += duration }
    }
}

/// Runs `body` with a ``FirmwareDaemon``, shutting it down afterwards.
func withFirmwareDaemon<T>(
    devices: [SimulatedDevice], stateDirectory: String? = nil, experimental: Bool = false,
    configure: @escaping @Sendable (inout KeyboardLinkService.Options) -> Void = { _ in },
    _ body: (FirmwareDaemon) async throws -> T
) async throws -> T {
    let daemon = try await FirmwareDaemon(
        devices: devices, stateDirectory: stateDirectory, experimental: experimental, configure: configure)
    do {
        let result = try await body(daemon)
        await daemon.shutDown()
        return result
    } catch {
        await daemon.shutDown()
        throw error
    }
}

/// The JSON text of the value at `path` in a decoded JSON object (keys sorted): `"AULA"`, `null`, `[...]`.
func jsonText(_ object: [String: Any], _ path: [String]) throws -> String {
    var value: Any = object
    for key in path {
        guard let dictionary = value as? [String: Any] else { return "<no object at \(key)>" }
        guard let next = dictionary[key] else { return "<missing \(key)>" }
        value = next
    }
    let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    return String(decoding: data, as: UTF8.self)
}
