import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// `org.kblink1.Keymap.Push` (docs/dbus-api.md): writes a keyboard's draft keymap to its firmware through the
/// keyboard's driver, and the detection that fills the `Driver` property.
extension KeymapWriter {
    /// Pushes the keyboard's draft and answers the result dictionary.
    /// - Throws: `DBusError`: `NotConnected`, `NotSupported` (no driver, an action the firmware cannot hold),
    ///   `Locked` (not unlocked in time), `Busy` (a push is running), `Failed` (the keyboard refused; rolled back).
    func push(_ address: BluetoothAddress, options: PushOptions) async throws -> DBusValue {
        guard let state = await registry.keyboard(address) else {
            throw KBlinkError.notFound("keyboard \(address) is no longer known")
        }
        guard await registry.isConnected(state) else {
            throw KBlinkError.notConnected(
                "\(state.alias) is not connected; wake it by pressing a key, then push again (the draft is kept)")
        }
        guard await pushes.begin(address) else {
            throw KBlinkError.busy(
                "a push, pull or re-apply on connect of \(state.alias) is already running; wait for it to finish")
        }
        do {
            let result =
                if let action = options.check {
                    try await checkAction(state, action)
                } else {
                    try await performPush(state, options: options)
                }
            await pushes.end(address)
            return result
        } catch {
            await pushes.end(address)
            throw error
        }
    }

    /// The push itself, with the keyboard claimed.
    private func performPush(_ state: KeyboardState, options: PushOptions) async throws -> DBusValue {
        let address = state.address
        // Through `read`, so that a keyboard whose profile is a newer kblink's gets that error, not "no session".
        let session = try await keymaps.read(address) { $0 }
        guard let driver = try await makeDriver(state) else {
            throw KBlinkError.notSupported(
                "\(state.alias) speaks no firmware protocol kblink can write (ZMK Studio or VIA); "
                    + "its keymap can only be changed in its firmware")
        }
        let desired = session.draftKeymap
        let pusher = DriverPush(driver: driver, layout: session.layout)
        let path = KBlink.keyboardPath(address)
        let connection = self.connection
        let progress: @Sendable (Int, Int) async -> Void = { done, total in
            try? await connection.emit(
                KBlinkContract.Keymap.pushProgressSignal, at: path,
                [.uint32(UInt32(clamping: done)), .uint32(UInt32(clamping: total))])
        }
        let outcome: DriverPush.Outcome
        do throws(DriverPush.Failure) {
            do throws(DriverPush.Failure) {
                outcome = try await pusher.run(
                    desired: desired, dryRun: options.dryRun, verify: options.verify, progress: progress)
            } catch let failure where failure.written == 0 && failure.error.isLocked {
                log(.notice, "\(state.alias) (\(address)) is locked: asking the user to unlock it")
                await promptUnlock(address)
                guard await driver.waitUntilUnlocked(timeout: options.unlockTimeout) else {
                    throw failure
                }
                outcome = try await pusher.run(
                    desired: desired, dryRun: options.dryRun, verify: options.verify, progress: progress)
            }
        } catch {
            await driver.close()
            log(.notice, "push to \(state.alias) (\(address)) failed: \(error)")
            throw error.dbusError
        }
        await driver.close()
        if !outcome.dryRun && !outcome.writes.isEmpty {
            log(.info, "pushed \(outcome.writes.count) binding(s) to \(state.alias) (\(address))")
        }
        if !outcome.dryRun {
            let applyOnConnect = options.applyOnConnect
            try await keymaps.editProfile(address) { session, settings throws(KeymapError) in
                if session.draftKeymap == desired {
                    session.markPushed()
                } else {
                    // Edited while pushing: the pushed keymap is the new base, the later edits stay a draft.
                    try session.rebase(onto: desired)
                }
                // The base is now what the keyboard holds: apply on connect has something to re-apply.
                settings.baseOnDevice = true
                if let applyOnConnect { settings.applyOnConnect = applyOnConnect }
            }
        }
        return Self.pushResult(outcome, driver: driver.kind)
    }

    /// The `check` option: whether the keyboard's firmware can hold one action; answered like a dry run that
    /// writes nothing, with the problem (layer 0, no key) in `problems` when it cannot.
    private func checkAction(_ state: KeyboardState, _ text: String) async throws -> DBusValue {
        let action: KeyAction
        do {
            action = try KeyAction(parsing: text)
        } catch {
            throw KBlinkError.invalidArgs(error.description)
        }
        guard let driver = try await makeDriver(state) else {
            throw KBlinkError.notSupported("\(state.alias) speaks no firmware protocol kblink can write")
        }
        var problems: [DriverPush.Problem] = []
        do throws(DriverError) {
            try await driver.check(action)
        } catch .notSupported(let reason) {
            problems.append(DriverPush.Problem(layer: 0, key: nil, action: action, reason: reason))
        } catch {
            await driver.close()
            throw error.dbusError
        }
        await driver.close()
        let outcome = DriverPush.Outcome(
            writes: [], previous: [], macros: nil, verified: false, saved: false, dryRun: true, problems: problems)
        return Self.pushResult(outcome, driver: driver.kind)
    }

    /// The driver of a connected keyboard, nil when it speaks none: ZMK Studio when it has the Studio GATT
    /// service, otherwise VIA when its raw HID interface is found. Fills `Driver` with what was found.
    func makeDriver(_ state: KeyboardState) async throws -> (any KeyboardDriver)? {
        let client = GATTClient(connection: connection, model: bluez, device: state.devicePath)
        var driver: (any KeyboardDriver)?
        do {
            driver = try await StudioDriver.connect(client: client, timeout: timeouts.studioRequest)
        } catch {
            throw error.dbusError
        }
        if driver == nil, let link = try await openVIALink(state) {
            let via = VIADriver(transport: link.transport, onClose: link.close)
            await registry.setDriverFirmware(await via.firmwareProperties(), of: state.address)
            driver = via
        }
        driverConnections[state.address, default: 0] += 1
        await registry.setDriver(driver?.kind.rawValue ?? "none", of: state.address)
        return driver
    }

    /// The keyboard's VIA link, nil when it has none.
    private func openVIALink(_ state: KeyboardState) async throws -> VIADriverLinks.Link? {
        let links = await pushes.viaLinks
        do {
            return try links.open(state.address)
        } catch {
            throw VIADriverLinks.openFailure(alias: state.alias, cause: error)
        }
    }

    /// After a keyboard connected with its services resolved: fills `Driver` from its GATT database, or from
    /// its VIA raw HID interface.
    func detectDriver(_ address: BluetoothAddress) async {
        guard let state = await registry.keyboard(address) else { return }
        let connections = driverConnections[address, default: 0]
        let database = await GATTDatabase.load(from: bluez, device: state.devicePath)
        var driver = "none"
        if database.characteristic(StudioDriver.characteristicUUID, inService: StudioDriver.serviceUUID) != nil {
            driver = DriverKind.zmkStudio.rawValue
        } else if let link = try? await openVIALink(state) {
            let via = VIADriver(transport: link.transport, onClose: link.close)
            let properties = await via.firmwareProperties()
            await via.close()
            driver = DriverKind.via.rawValue
            await registry.setDriverFirmware(properties, of: address)
        }
        // A push connected to the keyboard meanwhile: what it found is newer than this detection.
        guard driverConnections[address, default: 0] == connections else { return }
        await registry.setDriver(driver, of: address)
    }

    /// The `Push` answer: `written` (u), `macro-slots` (u: VIA macro slots written, or to write in a dry run),
    /// `layers-added` (u: ZMK Studio layers added, or to add in a dry run),
    /// `dry-run`, `verified`, `saved` (b), `driver` (s), `changes` (`a(usss)`: layer, key, what the keyboard held,
    /// what was written) and `problems` (`a(usss)`: layer, key, action, why the firmware cannot hold it; a dry run
    /// lists them all, a push refuses them before writing).
    static func pushResult(_ outcome: DriverPush.Outcome, driver: DriverKind) -> DBusValue {
        let changes = pushChanges(outcome)
        let entries: [(String, DBusValue)] = [
            ("written", .uint32(outcome.dryRun ? 0 : UInt32(clamping: outcome.writes.count))),
            ("macro-slots", .uint32(UInt32(clamping: outcome.macros?.changed.count ?? 0))),
            ("layers-added", .uint32(UInt32(clamping: outcome.addedLayers))),
            ("dry-run", .boolean(outcome.dryRun)),
            ("verified", .boolean(outcome.verified)),
            ("saved", .boolean(outcome.saved)),
            ("driver", .string(driver.rawValue)),
            ("changes", .array(.structure([.uint32, .string, .string, .string]), changes)),
            (
                "problems",
                .array(
                    .structure([.uint32, .string, .string, .string]),
                    outcome.problems.map {
                        .structure([
                            .uint32(UInt32(clamping: $0.layer)), .string($0.key?.rawValue ?? ""),
                            .string($0.action.description), .string($0.reason),
                        ])
                    })
            ),
        ]
        return .dictionary(
            key: .string, value: .variant,
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }
}

extension KeymapWriter {
    /// The `a(usss)` rows of what a push wrote: layer, key, what the keyboard held, what was written.
    static func pushChanges(_ outcome: DriverPush.Outcome) -> [DBusValue] {
        zip(outcome.writes, outcome.previous).map { write, old in
            DBusValue.structure([
                .uint32(UInt32(clamping: write.layer)), .string(write.key.rawValue), .string(old.description),
                .string(write.action.description),
            ])
        }
    }
}
