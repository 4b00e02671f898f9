import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// `org.kblink1.Keymap.Push` (docs/dbus-api.md): writes a keyboard's draft keymap to its firmware through the
/// keyboard's driver, and the detection that fills the `Driver` property.
extension KeymapWriter {
    /// Pushes the keyboard's draft and answers what it wrote (or, for a dry run or a check, would write).
    ///
    /// While kblinkd reads the keyboard's keymap on first contact, the push waits for that read (announced with
    /// `PushProgress(0, 0)`) instead of answering `Busy`; so it does behind a `CheckAction` that asks the keyboard,
    /// which holds it as a check (a check a client stopped waiting for must not make the next push `Busy`). A
    /// `CheckAction` answered from `actionSupport` claims nothing. While a healing step that disconnects the keyboard
    /// runs, the push waits for it before it looks at the keyboard's connection.
    /// - Throws: ``KBlinkError``: `NotConnected`, `NotSupported` (no driver, an action the firmware cannot hold, a base
    ///   that could not be read from the keyboard without `overwrite`), `Locked` (not unlocked in time), `Busy` (a
    ///   push, pull or re-apply is running), `Conflict` (keys both sides changed; nothing written), `Failed` (the
    ///   keyboard refused; rolled back).
    func push(_ address: BluetoothAddress, options: PushOptions) async throws -> PushReport {
        await waitForHealingStep(address)
        guard let state = await registry.keyboard(address) else {
            throw KBlinkError.notFound("keyboard \(address) is no longer known")
        }
        guard await registry.isConnected(state) else {
            throw KBlinkError.notConnected(
                "\(state.alias) is not connected; wake it by pressing a key, then push again (the draft is kept)")
        }
        if let action = options.check, let support = actionSupport[address] {
            // What the firmware can hold is known from this connection: no need to wait for the keyboard.
            return try Self.checkAction(action, support: support)
        }
        let connection = self.connection
        let path = KBlink.keyboardPath(address)
        let claimed = await pushes.begin(address, as: options.check == nil ? .writer : .check) {
            try? await connection.emit(
                KBlinkContract.Keymap.pushProgressSignal, at: path, PushProgress(done: 0, total: 0))
        }
        guard claimed else {
            throw KBlinkError.busy(
                "a push, pull or re-apply on connect of \(state.alias) is already running; wait for it to finish")
        }
        do {
            let result =
                if let action = options.check {
                    try await checkAction(state, action)
                } else {
                    try await pushAgainAfterLinkDrop(state, options: options)
                }
            await pushes.end(address)
            return result
        } catch {
            await pushes.end(address)
            throw error
        }
    }

    /// The push itself, with the keyboard claimed: the draft merged three-way with the keyboard against the base
    /// (`PushMerge`), or, with `overwrite`, the whole draft.
    /// - Throws: ``PushFailedBeforeChanges`` around the error when nothing was sent that changes the keyboard
    ///   (`pushAgainAfterLinkDrop` unwraps it), the ``KBlinkError`` otherwise.
    func performPush(_ state: KeyboardState, options: PushOptions) async throws -> PushReport {
        let address = state.address
        // Through `read`, so that a keyboard whose profile is a newer kblink's gets that error, not "no session".
        var session = try await keymaps.read(address) { $0 }
        let made: (any KeyboardDriver)?
        do {
            made = try await makeDriver(state)
        } catch {
            throw PushFailedBeforeChanges(error: error)
        }
        guard let driver = made else {
            throw KBlinkError.notSupported(
                "\(state.alias) speaks no firmware protocol kblink can write (ZMK Studio or VIA); "
                    + "its keymap can only be changed in its firmware")
        }
        let settings = await keymaps.settings(for: address) ?? ProfileSettings()
        if !settings.baseIsFromKeyboard && options.resolution != .overwrite {
            // The draft was made on kblink's guess of the keymap: read what the keyboard holds into the base first,
            // so that only the user's edits are written.
            do {
                try await adoptKeyboardBase(state, driver: driver, unlockTimeout: options.unlockTimeout)
            } catch let error as DriverError {
                await release(driver, of: state.address)
                log(.notice, "push to \(state.alias) (\(address)) failed reading its keymap first: \(error)")
                throw PushFailedBeforeChanges(
                    error: error.kblinkError(
                        message: error.message + "; nothing was written, the draft is kept (a push reads the "
                            + "keyboard's keymap first; 'kblink keymap push --overwrite' replaces it whole instead)"))
            } catch {
                await release(driver, of: state.address)
                throw KBlinkError.notSupported(
                    "kblinkd could not read the keymap \(state.alias) holds (\(error)), and its draft starts from "
                        + "kblink's default keymap, so a push would overwrite the keyboard's own keymap; try again once "
                        + "the keyboard can be read, or replace the whole keymap with 'kblink keymap push --overwrite'")
            }
            session = try await keymaps.read(address) { $0 }
        }
        let base = session.base
        let draft = session.draftKeymap
        let target = DriverPush.Target.merge(base: base, draft: draft, resolution: options.resolution)
        let pusher = DriverPush(driver: driver, layout: session.layout)
        let path = KBlink.keyboardPath(address)
        let connection = self.connection
        let progress: @Sendable (Int, Int) async -> Void = { done, total in
            try? await connection.emit(
                KBlinkContract.Keymap.pushProgressSignal, at: path,
                PushProgress(done: UInt32(clamping: done), total: UInt32(clamping: total)))
        }
        let outcome: DriverPush.Outcome
        do throws(DriverPush.Failure) {
            do throws(DriverPush.Failure) {
                outcome = try await pusher.run(
                    target, dryRun: options.dryRun, verify: options.verify, progress: progress)
            } catch let failure where failure.written == 0 && failure.error.isLocked {
                log(.notice, "\(state.alias) (\(address)) is locked: asking the user to unlock it")
                await promptUnlock(address)
                guard await driver.waitUntilUnlocked(timeout: options.unlockTimeout) else {
                    throw failure
                }
                outcome = try await pusher.run(
                    target, dryRun: options.dryRun, verify: options.verify, progress: progress)
            }
        } catch {
            await release(driver, of: state.address)
            log(.notice, "push to \(state.alias) (\(address)) failed: \(error)")
            if error.beforeChanges { throw PushFailedBeforeChanges(error: error.kblinkError) }
            throw error.kblinkError
        }
        await release(driver, of: state.address)
        if !outcome.dryRun {
            log(.info, "push to \(state.alias) (\(address)): " + Self.pushSummary(outcome))
        }
        if !outcome.dryRun, let holding = outcome.holding {
            let applyOnConnect = options.applyOnConnect
            let next = Self.nextBase(holding: holding, base: base, draft: draft, layout: session.layout)
            let now = WallClockTime.now().secondsSince1970
            try await keymaps.editProfile(address) { session, settings throws(KeymapError) in
                // Edits made while pushing stay a draft on the new base.
                do {
                    try session.adoptPushed(holding: next, pushed: draft)
                } catch {
                    try session.adoptPushed(holding: holding, pushed: draft)
                }
                // The base is now what the keyboard holds: apply on connect has something to re-apply.
                settings.baseOnDevice = true
                settings.baseOrigin = .pushed
                settings.baseSince = now
                if let applyOnConnect { settings.applyOnConnect = applyOnConnect }
            }
        }
        return Self.pushResult(outcome, driver: driver.kind)
    }

    /// The base after a push: what the keyboard holds, on the draft's layers when the user removed layers (the
    /// keyboard keeps its own above them, untouched), else on all the keyboard's.
    static func nextBase(holding: Keymap, base: Keymap, draft: Keymap, layout: PhysicalLayout) -> Keymap {
        guard draft.layerCount < base.layerCount, draft.layerCount < holding.layerCount else { return holding }
        return holding.resized(toLayerCount: draft.layerCount, for: layout)
    }

    /// `wrote 1 binding(s); kept 2 the keyboard changed (layer 0 A, ...)`, for the journal.
    static func pushSummary(_ outcome: DriverPush.Outcome) -> String {
        var parts = ["wrote \(outcome.writes.count) binding(s)"]
        if let slots = outcome.macros?.changed.count, slots > 0 { parts.append("\(slots) macro slot(s)") }
        if outcome.addedLayers > 0 { parts.append("added \(outcome.addedLayers) layer(s)") }
        if outcome.removedLayers > 0 { parts.append("removed \(outcome.removedLayers) layer(s)") }
        if outcome.renamedLayers > 0 { parts.append("named \(outcome.renamedLayers) layer(s)") }
        if let unedited = outcome.uneditedWrites, unedited > 0 {
            parts.append("overwrote \(unedited) binding(s) the draft had not changed")
        }
        if !outcome.kept.isEmpty {
            let named = outcome.kept.prefix(reapplyLogLimit).map { "layer \($0.layer) \($0.key)" }
            let rest = outcome.kept.count - named.count
            parts.append(
                "kept \(outcome.kept.count) binding(s) the keyboard changed by itself ("
                    + named.joined(separator: ", ") + (rest > 0 ? ", and \(rest) more" : "") + ")")
        }
        return parts.joined(separator: "; ")
    }

    /// The `check` option: whether the keyboard's firmware can hold one action; answered like a dry run that
    /// writes nothing, with the problem (layer 0, no key) in `problems` when it cannot. Asks the keyboard (claimed)
    /// only when nothing on this connection has learned what its firmware holds (`actionSupport`).
    private func checkAction(_ state: KeyboardState, _ text: String) async throws -> PushReport {
        if let support = actionSupport[state.address] { return try Self.checkAction(text, support: support) }
        let action = try Self.parseCheckedAction(text)
        guard let driver = try await makeDriver(state) else {
            throw KBlinkError.notSupported("\(state.alias) speaks no firmware protocol kblink can write")
        }
        var problems: [DriverPush.Problem] = []
        do throws(DriverError) {
            try await driver.check(action)
        } catch .notSupported(let reason) {
            problems.append(DriverPush.Problem(layer: 0, key: nil, action: action, reason: reason))
        } catch {
            await release(driver, of: state.address)
            throw error.kblinkError
        }
        await release(driver, of: state.address)
        return Self.checkResult(action, problems: problems, driver: driver.kind)
    }

    /// Whether the keyboard's firmware can hold `text`, answered without asking the keyboard (for `SetBinding`'s
    /// answer): checked against what was learned on this connection; checked with no problem when there is no
    /// firmware to ask (not connected, or no driver); unchecked when only asking the keyboard (`CheckAction`) can
    /// tell.
    func knownSupport(of text: String, on address: BluetoothAddress) async -> (checked: Bool, problem: String) {
        guard let state = await registry.keyboard(address), await registry.isConnected(state),
            ["zmk-studio", "via"].contains(state.driver) || actionSupport[address] != nil
        else { return (true, "") }
        guard let support = actionSupport[address] else { return (false, "") }
        guard let action = try? KeyAction(parsing: text) else { return (true, "") }
        do throws(DriverError) {
            try support.check(action)
            return (true, "")
        } catch .notSupported(let reason) {
            return (true, reason)
        } catch {
            return (false, "")
        }
    }

    /// The `check` option answered from what a driver learned earlier on this connection.
    static func checkAction(_ text: String, support: DriverActionSupport) throws -> PushReport {
        let action = try parseCheckedAction(text)
        var problems: [DriverPush.Problem] = []
        do throws(DriverError) {
            try support.check(action)
        } catch .notSupported(let reason) {
            problems.append(DriverPush.Problem(layer: 0, key: nil, action: action, reason: reason))
        } catch {
            throw error.kblinkError
        }
        return checkResult(action, problems: problems, driver: support.kind)
    }

    private static func parseCheckedAction(_ text: String) throws -> KeyAction {
        do {
            return try KeyAction(parsing: text)
        } catch {
            throw KBlinkError.invalidArgs(error.description)
        }
    }

    private static func checkResult(_ action: KeyAction, problems: [DriverPush.Problem], driver: DriverKind)
        -> PushReport
    {
        let outcome = DriverPush.Outcome(
            writes: [], previous: [], macros: nil, verified: false, saved: false, dryRun: true, problems: problems)
        return pushResult(outcome, driver: driver)
    }

    /// The driver of a connected keyboard, nil when it speaks none: ZMK Studio when it has the Studio GATT
    /// service, otherwise VIA when its raw HID interface is found. Fills `Driver` with what was found.
    func makeDriver(_ state: KeyboardState) async throws -> (any KeyboardDriver)? {
        let client = GATTClient(connection: connection, model: bluez, device: state.devicePath)
        await waitForListedStudioService(client)
        var driver: (any KeyboardDriver)?
        let (lockStates, lockReports) = AsyncStream<StudioLockState>.makeStream()
        do {
            driver = try await StudioDriver.connect(
                client: client, timeout: timeouts.studioRequest, lockStates: lockReports)
        } catch {
            lockReports.finish()
            throw error.kblinkError
        }
        if driver == nil { lockReports.finish() }
        // `StudioLock` follows what the link learns, in order, until the driver is closed.
        let registry = self.registry
        let address = state.address
        Task {
            for await lock in lockStates { await registry.setStudioLock(StudioLock(lock), of: address) }
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

    /// Waits, when the device lists the ZMK Studio service in its `UUIDs` but BlueZ has not exported its objects yet,
    /// for them to appear (`GATTClient.waitForGATTObjectsToSettle`): bluetoothd 5.66 announces `ServicesResolved`
    /// before the `InterfacesAdded` of a new link's GATT objects, and a push may start in between.
    private func waitForListedStudioService(_ client: GATTClient) async {
        let listed = await bluez.current().devices[client.device]?.uuids.contains {
            BluetoothUUID(validating: $0) == StudioDriver.serviceUUID
        }
        guard listed == true,
            await client.database().characteristic(StudioDriver.characteristicUUID, inService: StudioDriver.serviceUUID)
                == nil
        else { return }
        await client.waitForGATTObjectsToSettle(expected: [StudioDriver.serviceUUID])
    }

    /// The keyboard's VIA link, nil when it has none.
    private func openVIALink(_ state: KeyboardState) async throws -> VIADriverLinks.Link? {
        let links = await pushes.viaLinks
        let keyboard = Self.hidKeyboard(state, in: await bluez.current())
        do {
            return try links.open(keyboard)
        } catch {
            throw VIADriverLinks.openFailure(alias: state.alias, cause: error)
        }
    }

    /// What BlueZ says of a keyboard that its hidraw node must match: its address, its adapter's address, and the
    /// vendor and product of its `Modalias` (nil when BlueZ has none, or one that does not parse).
    static func hidKeyboard(_ state: KeyboardState, in snapshot: BlueZModel.Snapshot) -> BluetoothHIDKeyboard {
        let device = snapshot.devices[state.devicePath]
        let adapter = device?.adapter.flatMap { snapshot.adapters[$0] }.flatMap {
            BluetoothAddress(validating: $0.address)
        }
        let identity = device?.modalias.flatMap { try? DeviceIdentity(modalias: $0) }
        return BluetoothHIDKeyboard(
            address: state.address, adapter: adapter,
            productIDs: identity.map { .init(vendor: $0.vendorID, product: $0.productID) })
    }

    /// After a keyboard connected with its services resolved: fills `Driver` from its GATT database, or from
    /// its VIA raw HID interface.
    func detectDriver(_ address: BluetoothAddress) async {
        guard let state = await registry.keyboard(address) else { return }
        // A new connection: the firmware may have been flashed since a driver last learned what it holds.
        actionSupport[address] = nil
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
        if driver == DriverKind.via.rawValue { actionSupport[address] = .via }
        await registry.setDriver(driver, of: address)
    }

    /// The `Push` answer (``PushReport``) of a driver's outcome.
    static func pushResult(_ outcome: DriverPush.Outcome, driver: DriverKind) -> PushReport {
        PushReport(
            written: outcome.dryRun ? 0 : outcome.writes.count, macroSlots: outcome.macros?.changed.count ?? 0,
            layersAdded: outcome.addedLayers, layersRemoved: outcome.removedLayers,
            layersRenamed: outcome.renamedLayers, dryRun: outcome.dryRun, verified: outcome.verified,
            saved: outcome.saved, driver: driver.rawValue, changes: pushChanges(outcome),
            kept: differences(outcome.kept), conflicts: differences(outcome.conflicts),
            uneditedWrites: outcome.uneditedWrites ?? 0,
            problems: outcome.problems.map {
                PushReport.Problem(
                    layer: $0.layer, key: $0.key?.rawValue ?? "", action: $0.action.description, reason: $0.reason)
            })
    }
}

extension KeymapWriter {
    /// The keys the base, the draft and the keyboard disagree on, as the answer lists them.
    static func differences(_ rows: [PushMerge.Difference]) -> [PushReport.Difference] {
        rows.map {
            PushReport.Difference(
                layer: $0.layer, key: $0.key.rawValue, base: $0.base.description, draft: $0.draft.description,
                keyboard: $0.keyboard.description)
        }
    }

    /// The `a(usss)` rows of what a push wrote: layer, key, what the keyboard held, what was written.
    /// The bindings a re-apply wrote, for the `Reapplied` signal.
    static func reappliedChanges(_ outcome: DriverPush.Outcome) -> [ReappliedChange] {
        zip(outcome.writes, outcome.previous).map { write, old in
            ReappliedChange(
                layer: UInt32(clamping: write.layer), key: write.key.rawValue, old: old.description,
                new: write.action.description)
        }
    }

    static func pushChanges(_ outcome: DriverPush.Outcome) -> [PushReport.Change] {
        zip(outcome.writes, outcome.previous).map { write, old in
            PushReport.Change(
                layer: write.layer, key: write.key.rawValue, old: old.description, new: write.action.description)
        }
    }
}
