import Foundation
import KeyboardLink
import Synchronization
import Testing

/// kblinkd's service on a test bus, with a log the test reads, that the test can stop and start again on the same
/// state directory (to test what a restart loads: the firmware cache, saved drafts, apply-on-connect).
final class RestartableService: Sendable {
    let bus: TestBus
    let stateDirectory: String
    private let log = LogRecorder()
    private let configure: @Sendable (inout KeyboardLinkService.Options) -> Void
    private let prepare: @Sendable (KeyboardLinkService) async -> Void
    private let running = Mutex<(service: KeyboardLinkService, connection: BusConnection)?>(nil)

    /// Creates `stateDirectory`; nothing runs until ``start()``.
    /// - Parameters:
    ///   - configure: changes the service's options before each start.
    ///   - prepare: runs on each new service before it starts.
    init(
        bus: TestBus, stateDirectory: String,
        configure: @escaping @Sendable (inout KeyboardLinkService.Options) -> Void = { _ in },
        prepare: @escaping @Sendable (KeyboardLinkService) async -> Void = { _ in }
    ) throws {
        self.bus = bus
        self.stateDirectory = stateDirectory
        self.configure = configure
        self.prepare = prepare
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
    }

    /// The running service.
    var service: KeyboardLinkService {
        get throws { try #require(running.withLock { $0 }).service }
    }

    /// Starts the service (again) on the same state directory.
    func start() async throws {
        let connection = try await bus.connect()
        var options = KeyboardLinkService.Options(stateDirectory: stateDirectory)
        configure(&options)
        let service = KeyboardLinkService(
            connection: connection, options: options,
            log: { [log] level, message in log.lines.withLock { $0.append((level, message)) } })
        await prepare(service)
        try await service.start()
        running.withLock { $0 = (service, connection) }
    }

    /// Stops the service, keeping the bus and the state directory.
    func stop() async {
        guard
            let current = running.withLock({ value in
                defer { value = nil }; return value
            })
        else { return }
        await current.service.stop()
        await current.connection.close()
    }

    /// What the service logged so far, across restarts.
    var logLines: [(LogLevel, String)] { log.lines.withLock { $0 } }
}

/// A test daemon built on a ``RestartableService``: the service, its restarts and its log, forwarded.
protocol RestartableDaemon {
    var runner: RestartableService { get }
}

extension RestartableDaemon {
    var stateDirectory: String { runner.stateDirectory }

    /// The running service.
    var service: KeyboardLinkService {
        get throws { try runner.service }
    }

    /// Starts the service (again) on the same state directory.
    func startService() async throws { try await runner.start() }

    /// Stops the service, keeping the bus, the simulator and the state directory.
    func stopService() async { await runner.stop() }

    /// What the service logged so far.
    var logLines: [(LogLevel, String)] { runner.logLines }
}

/// The service's log lines.
final class LogRecorder: Sendable {
    let lines = Mutex<[(LogLevel, String)]>([])
}
