import Dispatch
import KBlinkAPI
import KeyboardLinkAuthorization
import KeyboardLinkDBus
import KeyboardLinkPresence
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What runs in the daemon's process beside the service: the simulated BlueZ and keyboards of `kblinkd-demo`.
/// kblinkd itself runs with none.
package struct DaemonCompanion: Sendable {
    /// Starts before the service connects. Given the bus the options named (nil: none), returns the bus to serve
    /// on and whether its address must be printed first (a private bus nobody else knows).
    package var start: @Sendable (_ bus: BusAddress?, _ logger: Logger) async throws -> (bus: BusAddress, print: Bool)
    /// Runs once the service is up and before readiness is announced.
    package var serviceStarted: @Sendable (_ service: KeyboardLinkService, _ logger: Logger) async -> Void
    /// Stops it, after the service.
    package var stop: @Sendable () async -> Void
    /// The input devices to watch instead of the configuration's (the simulated keyboards' own, in
    /// `kblinkd-demo`); nil: the configuration's. Asked once the companion started.
    package var inputDevices: (@Sendable () -> EvdevPresenceFeed?)?

    /// A companion made of these steps.
    package init(
        start: @escaping @Sendable (BusAddress?, Logger) async throws -> (bus: BusAddress, print: Bool),
        serviceStarted: @escaping @Sendable (KeyboardLinkService, Logger) async -> Void,
        stop: @escaping @Sendable () async -> Void,
        inputDevices: (@Sendable () -> EvdevPresenceFeed?)? = nil
    ) {
        self.start = start
        self.serviceStarted = serviceStarted
        self.stop = stop
        self.inputDevices = inputDevices
    }
}

/// The daemon's life: configuration, the bus, the service, systemd's readiness and watchdog, the evdev feed, and
/// signals (SIGHUP reloads the configuration, SIGTERM and SIGINT stop). `kblinkd` and `kblinkd-demo` are this
/// with their options.
package enum DaemonRunner {
    /// What the command line chose.
    package struct Options: Sendable {
        /// The bus to serve on; nil: the system bus (or, for a companion that brings one, its private bus).
        package var bus: BusAddress?
        /// The configuration file given with `--config`.
        package var configPath: String?
        /// Where profiles and caches live, given with `--state-dir`.
        package var stateDirectory: String?
        /// Print the bus address on the first line of standard output.
        package var printAddress = false
        /// `--log-level`, over the configuration's.
        package var logLevel: LogLevel?
        /// Who decides who may do what; nil: polkit, with the configuration's `[Authorization] FallbackGroup`.
        package var authorization: AuthorizationPolicy?
        /// `--grace-period SECONDS`, over the configuration's `[Presence] GracePeriod`.
        package var gracePeriod: Duration?

        package init() {}
    }

    /// The options every daemon executable takes, after its own flags were taken out.
    /// - Throws: ``ParsedArguments/UsageError``.
    package static func parse(_ parsed: ParsedArguments) throws -> Options {
        _ = try parsed.expectPositionals([])
        var options = Options()
        if let bus = parsed.value("--bus") {
            do {
                options.bus = try BusAddress(parsing: bus)
            } catch let error as DBusError {
                throw ParsedArguments.UsageError(error.message)
            }
        }
        options.configPath = parsed.value("--config")
        options.stateDirectory = parsed.value("--state-dir")
        options.printAddress = parsed.has("--print-address")
        if let level = parsed.value("--log-level") {
            guard let value = LogLevel(name: level) else {
                throw ParsedArguments.UsageError("--log-level is one of \(LogLevel.allNames.joined(separator: ", "))")
            }
            options.logLevel = value
        }
        if let text = parsed.value("--grace-period") {
            guard let period = DaemonConfiguration.seconds(text), DaemonConfiguration.gracePeriodRange.contains(period)
            else {
                throw ParsedArguments.UsageError(
                    "--grace-period is seconds from 0 to 300, up to 3 decimals (such as 0.5)")
            }
            options.gracePeriod = period
        }
        return options
    }

    /// The flags and options of ``parse(_:)``.
    package static let flags: Set<String> = ["--print-address", "--help", "--version"]
    package static let valueOptions: Set<String> = [
        "--bus", "--config", "--state-dir", "--log-level", "--grace-period",
    ]

    /// Ignores the signals the daemon handles itself, so that their default actions do not kill it first.
    package static func takeOverSignals() {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
    }

    static func loadConfiguration(_ options: Options) throws -> DaemonConfiguration.Parsed {
        if let path = options.configPath {
            return try DaemonConfiguration.load(path: path, missingFile: .fail)
        }
        return try DaemonConfiguration.load(path: DaemonConfiguration.defaultPath, missingFile: .useDefaults)
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    /// - Parameter companion: what runs beside the service (nil for kblinkd, which serves the system bus unless
    ///   told otherwise).
    package static func run(_ options: Options, companion: DaemonCompanion? = nil) async -> Int32 {
        let logger = Logger(threshold: options.logLevel ?? .info)
        let notifier = SystemdNotifier.fromProcessEnvironment()
        // Children (the private dbus-daemon of kblinkd-demo) must not notify systemd as if they were us.
        SystemdNotifier.removeVariablesFromProcessEnvironment()
        // Listen from the start (but after unsetenv, which must come before other threads): a SIGTERM that arrives
        // while kblinkd is still starting is buffered and handled once start-up is done, not lost to SIG_IGN.
        let signals = AsyncStream<Int32>.makeStream()
        let sources = [SIGTERM, SIGINT, SIGHUP].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { signals.continuation.yield(number) }
            source.resume()
            return source
        }
        var configuration: DaemonConfiguration
        do {
            let parsed = try loadConfiguration(options)
            configuration = parsed.configuration
            for warning in parsed.warnings { logger.warning("\(warning)") }
        } catch {
            logger.error("\(error)")
            return 1
        }
        if options.logLevel == nil { logger.threshold = configuration.logLevel }

        var bus = options.bus ?? .system
        var printAddress = options.printAddress
        if let companion {
            do {
                let started = try await companion.start(options.bus, logger)
                bus = started.bus
                printAddress = printAddress || started.print
            } catch {
                logger.error("\(error)")
                return 1
            }
        }
        if printAddress {
            writeOutput(bus.description)
        }

        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(to: bus, label: "kblinkd.bus")
        } catch {
            logger.error("\(error)")
            return 1
        }
        let stateDirectory = options.stateDirectory ?? environmentValue("STATE_DIRECTORY") ?? "/var/lib/kblink"
        var serviceOptions = KeyboardLinkService.Options(stateDirectory: stateDirectory)
        serviceOptions.presencePolicy = configuration.presencePolicy
        serviceOptions.discoveryTimeout = configuration.discoveryTimeout
        serviceOptions.presence = presenceSettings(configuration, options)
        serviceOptions.health = configuration.health
        serviceOptions.batteryProvider = configuration.batteryProvider
        serviceOptions.pairing.requestDefaultAgent = configuration.defaultAgent
        serviceOptions.authorization =
            options.authorization ?? .polkit(fallbackGroup: configuration.fallbackGroup)
        // Under systemd, the audit trail goes to the journal as fields of its own.
        if environmentValue("JOURNAL_STREAM") != nil, access(JournalWriter.defaultSocket, W_OK) == 0 {
            serviceOptions.auditJournal = JournalWriter()
        }
        let service = KeyboardLinkService(
            connection: connection, options: serviceOptions, log: { level, message in logger.log(level, message) })
        do {
            try await service.start()
        } catch {
            logger.error("cannot start: \(error)")
            await connection.close()
            return 1
        }
        await companion?.serviceStarted(service, logger)
        let presence =
            companion?.inputDevices?()
            ?? EvdevPresenceFeed(
                devicesPath: configuration.inputDevicesPath, directory: configuration.inputDirectory,
                udev: UdevDatabase(), sysfsRoot: configuration.sysfsRoot)
        let presenceTask = Task {
            await presence.run(into: service, logger: logger)
        }
        let count = await service.keyboardCount
        do {
            try notifier.ready(status: "serving org.kblink1, \(count) keyboard(s)")
            if notifier.isEnabled { logger.debug("told the service manager READY=1") }
        } catch {
            // systemd would time the start out and stop kblinkd: say why here, where the journal shows it.
            logger.error("cannot send READY=1 to NOTIFY_SOCKET: \(error)")
        }
        let watchdog = Task {
            await notifier.keepWatchdogAlive(logger: logger) {
                (try? await connection.nameOwner(of: KBlink.service)) == connection.uniqueName
            }
        }

        // What runs: settings read only at start keep these values until kblinkd restarts.
        let started = configuration
        for await number in signals.stream {
            if number == SIGHUP {
                try? notifier.reloading(status: "reloading the configuration")
                do {
                    let parsed = try loadConfiguration(options)
                    configuration = parsed.configuration
                    for warning in parsed.warnings { logger.warning("\(warning)") }
                    if options.logLevel == nil { logger.threshold = configuration.logLevel }
                    var updated = await service.options
                    updated.presencePolicy =
                        configuration.presencePolicy
                    updated.discoveryTimeout = configuration.discoveryTimeout
                    updated.presence = presenceSettings(configuration, options)
                    updated.health = configuration.health
                    await service.reconfigure(updated)
                    logger.notice("configuration reloaded")
                    let pending = DaemonConfiguration.restartOnlyChanges(from: started, to: configuration)
                    if !pending.isEmpty {
                        logger.notice(
                            "changed, but read only when kblinkd starts: \(pending.joined(separator: ", ")); they "
                                + "keep their previous values until kblinkd restarts ('systemctl restart kblinkd')")
                    }
                } catch {
                    logger.error("configuration not reloaded, keeping the previous one: \(error)")
                }
                try? notifier.ready(status: "serving org.kblink1")
                continue
            }
            logger.notice("stopping on signal \(number)")
            break
        }
        for source in sources { source.cancel() }
        try? notifier.stopping(status: "stopping")
        watchdog.cancel()
        presenceTask.cancel()
        await service.stop()
        await connection.close()
        await companion?.stop()
        return 0
    }

    /// The presence settings of the configuration, with `--grace-period` over its grace period.
    static func presenceSettings(_ configuration: DaemonConfiguration, _ options: Options) -> PresenceSettings {
        PresenceSettings(
            gracePeriod: options.gracePeriod ?? configuration.gracePeriod,
            countsVirtualDevices: configuration.countsVirtualDevices)
    }

    static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Writes a line to standard output at once (the demo script waits for the address line).
    package static func writeOutput(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Writes a line to standard error at once.
    package static func writeError(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
