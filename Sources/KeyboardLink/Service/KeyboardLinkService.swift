import KBlinkAPI
import KeyboardLinkAuthorization
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkPairing
import KeyboardLinkPresence
import KeyboardLinkSupport

/// The daemon's `org.kblink1` objects: the Manager at `/org/kblink1` and one Keyboard object per Bluetooth
/// keyboard BlueZ knows, kept in step with the live BlueZ model.
///
/// This is where the jobs are put together; each does one thing:
/// - ``KeyboardRegistry`` follows BlueZ, exports the keyboards and runs discovery;
/// - ``FirmwareRefresher`` reads firmware and battery information and keeps its cache;
/// - ``KeymapSessions`` holds the keymap edit sessions and their profiles;
/// - ``KeymapWriter`` pushes, pulls and re-applies keymaps through the keyboards' drivers;
/// - ``PairingCoordinator`` pairs keyboards (``KeyboardPairing`` answers `Pair` with it);
/// - ``ManagerObject``, ``KeyboardObject`` and ``KeymapObject`` are the D-Bus objects: they decode calls, hand them
///   to the job and encode the answers.
package actor KeyboardLinkService {
    /// How the service is set up.
    package struct Options: Sendable {
        /// Where profiles, drafts and the firmware cache live.
        package var stateDirectory: String
        /// Which keyboards count as "a hardware keyboard is in use".
        package var presencePolicy: PresencePolicy = .external
        /// The presence grace period and whether virtual keyboards count (none and no by default; kblinkd's
        /// configuration sets them).
        package var presence = PresenceSettings()
        /// How keyboards connected without an input device are healed (`[Health]`; docs/health.md).
        package var health = HealthSettings()
        /// How long `StartDiscovery` keeps looking when nobody stops it.
        package var discoveryTimeout: Duration = .seconds(20)
        /// How many unpaired keyboards that are not connected are exported at most (the ones seen last).
        package var unpairedKeyboardLimit = 32
        /// Whether kblinkd registers as a BlueZ battery provider (`[Battery] Provider`; off by default).
        package var batteryProvider = false
        /// How keyboards are paired (`[Pairing] DefaultAgent` sets `pairing.requestDefaultAgent`).
        package var pairing = PairingOptions()
        /// How long a re-apply on connect waits for a locked ZMK keyboard to be unlocked.
        package var reapplyUnlockTimeout: Duration = .seconds(60)
        /// How long a re-apply on connect waits for the keyboard's driver (a VIA hidraw node appears a moment
        /// after the Bluetooth connection).
        package var reapplyDriverTimeout: Duration = .seconds(5)
        /// How long a ZMK Studio request may go unanswered before the keyboard counts as asleep.
        package var studioRequestTimeout: Duration = .seconds(10)
        /// How long a pull whose link dropped waits for the keyboard to be connected again before it reads once more
        /// (``KeymapWriter/cameBackAfterLinkDrop(_:dropsBefore:)``).
        package var linkReturnTimeout: Duration = .seconds(20)
        /// Whether a keyboard whose base is kblink's default keymap is read into the base as soon as it connects
        /// (otherwise at its first push or pull, or by `readKeymapBases()`), and a ZMK Studio keyboard asked whether
        /// it is locked (`StudioLock`; otherwise learnt at its first push or pull). Tests whose simulated firmware
        /// attaches after the keyboard connected turn it off and call `readKeymapBases()` once it is there.
        package var readsKeymapOnConnect = true
        /// How long a keyboard's GATT objects must stay unchanged before a firmware read starts (BlueZ announces
        /// them one by one after `ServicesResolved`).
        package var firmwareSettleQuiet: Duration = .milliseconds(400)
        /// How long a firmware read waits, past that quiet spell, for a Device Information or Battery Service the
        /// keyboard lists but BlueZ has not exported yet (a BlueZ that keeps a service to itself never exports it).
        package var firmwareListedServiceWait: Duration = .seconds(2)
        /// How long after a keyboard's firmware information was read `RefreshInfo()` answers from that read
        /// instead of reading the keyboard again (`defaultFirmwareRefreshWindow`; zero reads on every call).
        package var firmwareRefreshWindow = defaultFirmwareRefreshWindow
        /// The monotonic clock that window is measured on (tests move it instead of sleeping).
        package var monotonicNow: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        /// Who may pair, edit keymaps, write firmware and read macros (polkit, with the group fallback).
        package var authorization = AuthorizationPolicy.polkit()
        /// Where audit records go as structured journal entries (``JournalWriter``); nil writes them as text lines to
        /// the log like everything else.
        package var auditJournal: JournalWriter?

        /// `RefreshInfo()` within 5 s of the last read answers from it: a read takes a dozen GATT round trips on a
        /// radio shared with typing, and `kblink info --refresh` run twice, or by two programs, needs only one.
        package static let defaultFirmwareRefreshWindow: Duration = .seconds(5)

        package init(stateDirectory: String) {
            self.stateDirectory = stateDirectory
        }

        /// The keymap writer's timeouts.
        var writerTimeouts: KeymapWriter.Timeouts {
            KeymapWriter.Timeouts(
                reapplyUnlock: reapplyUnlockTimeout, reapplyDriver: reapplyDriverTimeout,
                studioRequest: studioRequestTimeout, linkReturn: linkReturnTimeout,
                readsKeymapOnConnect: readsKeymapOnConnect)
        }
    }

    package let connection: BusConnection
    package let bluez: BlueZModel
    /// Our BlueZ agent and the pairing flows.
    package let pairing: PairingCoordinator
    package private(set) var options: Options
    let log: @Sendable (LogLevel, String) -> Void
    /// The keymap edit sessions and their profiles.
    package let keymaps: KeymapSessions
    /// The keymap pushes running.
    package let pushes: KeyboardPushes
    /// The exported keyboards, following BlueZ.
    let registry: KeyboardRegistry
    /// Follows logind's `PrepareForSleep`.
    private var sleepWatch: Task<Void, Never>?
    /// Firmware information, its cache and the refreshes in flight.
    let firmware: FirmwareRefresher
    /// Push, pull, re-apply on connect and driver detection.
    let writer: KeymapWriter
    /// Decides who may call what (polkit), and writes the audit lines.
    package let authorizer: Authorizer
    /// kblinkd as a BlueZ battery provider.
    let batteryProvider: BatteryProviderPublisher

    /// - Parameter log: where the service reports what it does.
    package init(connection: BusConnection, options: Options, log: @escaping @Sendable (LogLevel, String) -> Void) {
        self.connection = connection
        let model = BlueZModel(connection: connection)
        self.bluez = model
        let pairingEvents = PairingEventPublisher(connection: connection, log: log)
        self.pairing = PairingCoordinator(
            connection: connection, model: model, options: options.pairing, log: log,
            events: { await pairingEvents.publish($0) })
        self.options = options
        self.log = log
        let pushes = KeyboardPushes()
        self.pushes = pushes
        let keymaps = KeymapSessions(
            connection: connection, profilesDirectory: options.stateDirectory + "/profiles", log: log)
        self.keymaps = keymaps
        let registry = KeyboardRegistry(
            connection: connection, bluez: model, keymaps: keymaps, pushes: pushes,
            presencePolicy: options.presencePolicy,
            presence: options.presence, health: options.health, discoveryTimeout: options.discoveryTimeout,
            unpairedLimit: options.unpairedKeyboardLimit, log: log)
        self.registry = registry
        self.firmware = FirmwareRefresher(
            connection: connection, bluez: model, registry: registry, stateDirectory: options.stateDirectory,
            settleQuiet: options.firmwareSettleQuiet, listedServiceWait: options.firmwareListedServiceWait,
            refreshWindow: options.firmwareRefreshWindow, now: options.monotonicNow, log: log)
        self.batteryProvider = BatteryProviderPublisher(connection: connection, log: log)
        self.writer = KeymapWriter(
            connection: connection, bluez: model, registry: registry, keymaps: keymaps, pushes: pushes,
            timeouts: options.writerTimeouts, log: log)
        self.authorizer = Authorizer(
            connection: connection, policy: options.authorization,
            log: Self.authorizationLog(log, journal: options.auditJournal))
    }

    /// Where the authorizer reports: decisions to the log at their levels, audit records to the journal as fields when
    /// `journal` is given (their text to the log when it cannot be reached), else as text to the log.
    private static func authorizationLog(
        _ log: @escaping @Sendable (LogLevel, String) -> Void, journal: JournalWriter?
    ) -> AuthorizationLog {
        let write: @Sendable (AuthorizationLog.Level, String) -> Void = { level, line in
            switch level {
            case .debug: log(.debug, line)
            case .notice: log(.notice, line)
            case .warning: log(.warning, line)
            }
        }
        guard let journal else { return AuthorizationLog(write) }
        return AuthorizationLog(write) { record in
            let entry: [(name: String, value: String)] =
                [("MESSAGE", record.line), ("PRIORITY", "5"), ("SYSLOG_IDENTIFIER", "kblinkd")] + record.fields
            if !journal.send(entry) { log(.notice, record.line) }
        }
    }

    /// Reads every connected keyboard whose base is still kblink's default keymap into its base (as on first
    /// contact), one after another, waiting for any push, pull or read of that keyboard that is running; returns
    /// when done. For a companion whose simulated firmware appears after the keyboards connected.
    package func readKeymapBases() async {
        for address in await keymaps.addresses {
            await writer.readBaseOnFirstContact(address, waiting: true)
        }
    }

    /// Exports the Manager, loads BlueZ's state, exports the keyboards and then takes `org.kblink1`.
    /// Returns when the daemon is ready to answer.
    /// - Throws: ``DBusError`` when the name cannot be owned (another kblinkd, or the bus policy).
    package func start() async throws {
        await connection.limitCalls(KBlink.callLimits)
        var access = AccessControl(authorizer: authorizer)
        access.pairingAddress = { [weak registry] text in
            try? await registry?.pairingAddress(text).description
        }
        access.keyboardAddress = { [weak registry] text in
            try? await registry?.keyboard(matching: text).address
        }
        access.macroOwners = { [weak keymaps] path in
            guard let address = try? BluetoothAddress(devicePath: path) else { return [] }
            return await keymaps?.macroOwners(for: address) ?? []
        }
        let objects = KeyboardObjects(
            keyboard: KeyboardObject(registry: registry, firmware: firmware, access: access),
            keymap: KeymapObject(keymaps: keymaps, writer: writer, access: access))
        await registry.prepare(
            objects: objects, firmware: firmware.loadCache(),
            readinessObserver: { [weak firmware, weak writer] readyNow in
                guard let fresh = await firmware?.follow(readyNow: readyNow) else { return }
                for address in fresh.sorted() {
                    Task { await writer?.keyboardBecameReady(address) }
                }
            })
        await connection.addObjectManager(at: KBlink.managerPath)
        try await connection.export(
            ManagerObject.interface(
                registry: registry,
                pairing: KeyboardPairing(registry: registry, coordinator: pairing, connection: connection),
                keymaps: keymaps, writer: writer, access: access),
            at: KBlink.managerPath)
        if options.batteryProvider {
            await batteryProvider.start()
            await registry.setBatteryProvider(batteryProvider)
        }
        await keymaps.loadUserLayouts(from: options.stateDirectory + "/layouts")
        await keymaps.loadAddedLayouts(from: options.stateDirectory + "/added-layouts")
        await keymaps.removeExpiredSetAsideProfiles()
        try await registry.start()
        try await pairing.start()
        await registry.follow()
        await followSleep()
        let reply = try await connection.requestName(KBlink.service)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw DBusError.failed("org.kblink1 is already owned: is another kblinkd running?")
        }
        log(
            .info,
            "serving org.kblink1 with \(await registry.count) keyboard(s); BlueZ \(await registry.isBlueZRunning ? "running" : "not running")"
        )
    }

    /// Releases the name and stops following BlueZ.
    package func stop() async {
        sleepWatch?.cancel()
        await pairing.stop()
        await registry.stop()
        await batteryProvider.stop()
        await firmware.stop()
        await bluez.stop()
        try? await connection.releaseName(KBlink.service)
    }

    /// Applies a new configuration (SIGHUP).
    package func reconfigure(_ options: Options) async {
        self.options = options
        await writer.reconfigure(options.writerTimeouts)
        await registry.reconfigure(
            presencePolicy: options.presencePolicy, presence: options.presence, health: options.health,
            discoveryTimeout: options.discoveryTimeout)
    }

    /// logind's `PrepareForSleep(b start)` on the bus kblinkd serves (the system bus): healing pauses before the
    /// computer sleeps and starts over after it resumed (docs/health.md). Without logind nothing arrives.
    private func followSleep() async {
        let rule = MatchRule(
            sender: "org.freedesktop.login1", path: "/org/freedesktop/login1",
            interface: "org.freedesktop.login1.Manager",
            member: "PrepareForSleep")
        guard let signals = try? await connection.subscribe(to: rule) else {
            log(.warning, "cannot follow logind's PrepareForSleep; healing does not pause for sleep")
            return
        }
        let registry = registry
        sleepWatch = Task {
            for await message in signals {
                guard message.body.count == 1, case .boolean(let start) = message.body[0] else { continue }
                await registry.prepareForSleep(start)
            }
        }
    }

    /// Whether kblinkd still has something to do for a keyboard's health (a timer set or a healing step
    /// running); false once it is working, failed or not connected (docs/health.md).
    package func healthIsPending(_ address: BluetoothAddress) async -> Bool {
        await registry.healthIsPending(address)
    }

    /// Whether an input-device monitor has reported once: until then a connected keyboard counts as working
    /// ("input devices are not watched").
    package func inputDevicesReported() async -> Bool {
        await registry.inputDevicesReported
    }

    /// Feeds the input devices the evdev monitor found.
    package func updateEvdevDevices(_ devices: [InputDevice]) async {
        await registry.updateEvdevDevices(devices)
    }

    /// The number of exported keyboards.
    package var keyboardCount: Int {
        get async { await registry.count }
    }

    /// The hardware keyboards that count under the policy, and whether any does (as published: held during the
    /// grace period).
    package func presence() async -> (attached: Bool, keyboards: [HardwareKeyboard]) {
        await registry.presence()
    }

    /// The published presence with every keyboard looked at and why it counts or not.
    package func presenceReasons() async -> [HardwareKeyboardReason] {
        await registry.presenceWithReasons().reasons
    }

    /// The firmware information the service holds for a keyboard (for tests and other domains).
    package func firmwareInfo(for address: BluetoothAddress) async -> FirmwareInfo? {
        await registry.firmwareInfo(for: address)
    }

    /// The batteries kblinkd supplies to BlueZ now, as device paths and `Source` texts.
    package func suppliedBatteries() async -> [(device: ObjectPath, percentage: UInt8, source: String)] {
        await batteryProvider.supplied.map { ($0.device, $0.percentage, $0.source) }
    }

    /// Whether a refresh of the keyboard's information is in flight.
    package func isRefreshingFirmware(_ address: BluetoothAddress) async -> Bool {
        await firmware.isRefreshing(address)
    }
}
