import Dispatch
import KeyboardLink

#if canImport(Glibc)
    import Glibc
#endif

/// `kblinkd`: parse options, build the service, run until SIGTERM, reload on SIGHUP.
@main
struct KBlinkDaemon {
    static let usage = """
        Usage: kblinkd [--bus system|session|ADDRESS] [--config PATH] [--state-dir PATH] [--simulate] [--print-address]
                       [--log-level error|warning|notice|info|debug]

        The kblink daemon: follows BlueZ, serves org.kblink1, pairs and configures Bluetooth keyboards.

          --bus BUS        the bus to serve on (default: system; with --simulate: a private bus it starts)
          --config PATH    configuration file (default /etc/kblink/kblinkd.conf; see kblinkd.conf.example)
          --state-dir PATH where profiles and caches live (default $STATE_DIRECTORY, else /var/lib/kblink)
          --simulate       serve a simulated BlueZ with simulated keyboards on the bus (no hardware needed);
                           without --bus, start a private dbus-daemon and print its address on the first line
          --print-address  print the bus address on the first line of standard output, then run
          --log-level L    override the configuration's LogLevel

        kblinkd --check-hidraw DESCRIPTOR
          For the udev rule 70-kblink-via.rules: exits 0 when a hidraw node with this report descriptor
          (/sys/class/hidraw/hidrawN/device/report_descriptor) is a VIA raw HID interface only (usage page 0xFF60, no
          key reports) that the group kblinkd may open, 1 otherwise; says why on standard error.
        """

    struct Options {
        var bus: BusAddress?
        var configPath: String?
        var stateDirectory: String?
        var simulate = false
        var printAddress = false
        var logLevel: LogLevel?
    }

    static func parse(_ arguments: [String]) throws -> Options {
        let parsed = try ParsedArguments(
            arguments, flags: ["--simulate", "--print-address", "--help", "--version"],
            options: ["--bus", "--config", "--state-dir", "--log-level"])
        if parsed.has("--help") {
            print(usage)
            exit(0)
        }
        if parsed.has("--version") {
            print("kblinkd \(KBlink.version)")
            exit(0)
        }
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
        options.simulate = parsed.has("--simulate")
        options.printAddress = parsed.has("--print-address")
        if let level = parsed.value("--log-level") {
            guard let value = LogLevel(name: level) else {
                throw ParsedArguments.UsageError("--log-level is one of \(LogLevel.allNames.joined(separator: ", "))")
            }
            options.logLevel = value
        }
        return options
    }

    static func main() async {
        // Signals are handled by dispatch sources; the default actions must not kill us first.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--check-hidraw" {
            guard arguments.count == 2 else {
                writeError("kblinkd: --check-hidraw takes one path, the node's report_descriptor\n")
                exit(2)
            }
            let (granted, reason) = HIDRawAccessRule.decision(forDescriptorAt: arguments[1])
            writeError("kblinkd --check-hidraw: \(granted ? "grant" : "refuse"): \(reason)\n")
            exit(granted ? 0 : 1)
        }
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            writeError("kblinkd: \(error)\n\n\(usage)")
            exit(2)
        }
        let code = await run(options)
        exit(code)
    }

    static func loadConfiguration(_ options: Options) throws -> DaemonConfiguration.Parsed {
        if let path = options.configPath {
            return try DaemonConfiguration.load(path: path, missingFile: .fail)
        }
        return try DaemonConfiguration.load(path: DaemonConfiguration.defaultPath, missingFile: .useDefaults)
    }

    static func run(_ options: Options) async -> Int32 {
        let logger = Logger(threshold: options.logLevel ?? .info)
        let notifier = SystemdNotifier.fromProcessEnvironment()
        // Children (the private dbus-daemon of --simulate) must not notify systemd as if they were us.
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

        var privateBus: PrivateBusDaemon?
        let bus: BusAddress
        if let given = options.bus {
            bus = given
        } else if options.simulate {
            do {
                let daemon = try PrivateBusDaemon()
                privateBus = daemon
                bus = .address(daemon.address)
            } catch {
                logger.error("cannot start a private bus for --simulate: \(error)")
                return 1
            }
        } else {
            bus = .system
        }
        if options.printAddress || (options.simulate && options.bus == nil) {
            writeOutput(bus.description)
        }
        defer { privateBus?.stop() }

        var simulator: SimulatedBlueZ?
        if options.simulate {
            let simulated = SimulatedBlueZ.demo(bus: bus)
            do {
                try await simulated.start()
            } catch {
                logger.error("cannot start the simulated BlueZ: \(error)")
                return 1
            }
            simulator = simulated
            logger.notice("serving a simulated BlueZ on \(bus)")
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
        serviceOptions.pairing.requestDefaultAgent = configuration.defaultAgent
        let service = KeyboardLinkService(
            connection: connection, options: serviceOptions, log: { level, message in logger.log(level, message) })
        do {
            try await service.start()
        } catch {
            logger.error("cannot start: \(error)")
            await connection.close()
            return 1
        }
        var demoFirmware: SimulatedDemoFirmware?
        if let simulator {
            // The simulated keyboards' firmware, so that keymap push and pull work in the demo too.
            do {
                let firmware = try await SimulatedDemoFirmware.start(on: simulator)
                await service.pushes.setVIALinks(firmware.viaLinks)
                demoFirmware = firmware
            } catch {
                logger.warning("the simulated keyboards have no firmware to push to: \(error)")
            }
        }
        defer { demoFirmware?.via.stop() }
        let presence = EvdevPresenceFeed(
            devicesPath: configuration.inputDevicesPath, directory: configuration.inputDirectory)
        let presenceTask = Task {
            await presence.run(into: service, logger: logger)
        }
        let count = await service.keyboardCount
        try? notifier.ready(status: "serving org.kblink1, \(count) keyboard(s)")
        let watchdog = Task {
            await notifier.keepWatchdogAlive(logger: logger) {
                (try? await connection.nameOwner(of: KBlink.service)) == connection.uniqueName
            }
        }

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
                    await service.reconfigure(updated)
                    logger.notice("configuration reloaded")
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
        await simulator?.kill()
        return 0
    }

    static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Writes a line to standard output at once (the demo script waits for the address line).
    static func writeOutput(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    static func writeError(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
