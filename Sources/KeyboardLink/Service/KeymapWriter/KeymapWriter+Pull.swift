import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// `org.kblink1.Keymap.Pull` (docs/dbus-api.md): reads a keyboard's keymap (and its VIA macro slots) through its
/// driver into the base (the draft's edits replayed onto it) and stages it in the draft as one edit, so that one
/// `Undo` brings the edits back.
extension KeymapWriter {
    /// Reads the keyboard into its draft and answers what it read.
    /// - Throws: ``KBlinkError``: `NotConnected`, `NotSupported` (no driver), `Locked` (not unlocked in time), `Busy`
    ///   (a push or re-apply is running), `Failed` (the keyboard answered nonsense, or the profile could not be
    ///   saved).
    func pull(_ address: BluetoothAddress, unlockTimeout: Duration = PushOptions().unlockTimeout) async throws
        -> PullReport
    {
        await waitForHealingStep(address)
        guard let state = await registry.keyboard(address) else {
            throw KBlinkError.notFound("keyboard \(address) is no longer known")
        }
        guard await registry.isConnected(state) else {
            throw KBlinkError.notConnected(
                "\(state.alias) is not connected; wake it by pressing a key, then pull again")
        }
        // Claimed like a push: a pull never reads a keymap half-written by a push or a re-apply.
        guard await pushes.begin(address) else {
            throw KBlinkError.busy(
                "a push, pull or re-apply on connect of \(state.alias) is running; wait for it to finish, then pull "
                    + "again")
        }
        do {
            let result: PullReport
            let drops = await bluez.linkDrops(of: state.devicePath)
            do {
                result = try await performPull(state, unlockTimeout: unlockTimeout)
            } catch let error as KBlinkError where error.code == .notConnected {
                // A pull only reads: when the link dropped under it and the keyboard is back, it reads again.
                guard await cameBackAfterLinkDrop(state, dropsBefore: drops) else { throw error }
                log(
                    .notice,
                    "\(state.alias) (\(address)): the link dropped during the pull and came back; reading again")
                result = try await performPull(state, unlockTimeout: unlockTimeout)
            }
            await pushes.end(address)
            return result
        } catch {
            await pushes.end(address)
            throw error
        }
    }

    /// The pull itself, with the keyboard claimed (`pull(_:unlockTimeout:)`, `setPhysicalLayout`).
    func performPull(_ state: KeyboardState, unlockTimeout: Duration) async throws -> PullReport {
        let address = state.address
        // Through `read`, so that a keyboard whose profile is a newer kblink's gets that error, not "no session".
        let session = try await keymaps.read(address) { $0 }
        guard let driver = try await makeDriver(state) else {
            throw KBlinkError.notSupported(
                "\(state.alias) speaks no firmware protocol kblink can read (ZMK Studio or VIA); "
                    + "edit its keymap with 'kblink keymap set' and keep it in the profile instead")
        }
        let device: DeviceKeymap
        do throws(DriverError) {
            device = try await readKeymap(driver, state, layout: session.layout, unlockTimeout: unlockTimeout)
        } catch {
            await release(driver, of: state.address)
            log(.notice, "pull from \(state.alias) (\(address)) failed: \(error)")
            throw error.pullError(alias: state.alias)
        }
        await release(driver, of: state.address)
        let layout = session.layout
        let now = WallClockTime.now().secondsSince1970
        let pull = try await keymaps.editProfile(address) { session, settings throws(KeymapError) in
            // Converted against the session as it is now: edits that arrived while the keyboard was read count.
            // The draft takes the keyboard's layer count: what a push can write.
            let layerCount = min(max(device.layers.count, 1), Keymap.maximumLayers)
            let pull = DevicePull(
                device: device, layout: layout, layerCount: layerCount, macros: session.macros,
                names: session.draftKeymap.layerNames)
            let changed = pull.changed(from: session.draftKeymap, layout: layout)
            var recorded = false
            // What the keyboard holds becomes the base, the draft's edits replayed onto it; then the draft takes the
            // keyboard's keymap as one edit, so that one Undo brings the edits back on the new base.
            do throws(KeymapError) {
                var rebased = session
                try rebased.rebaseOnKeyboard(device)
                recorded = try rebased.apply(.replaceKeymap(pull.keymap))
                session = rebased
                settings.baseOrigin = .keyboard
                settings.baseSince = now
            } catch {
                // The edits do not apply to what the keyboard holds: the base stays, the draft takes the keyboard's
                // keymap, and Diff() lists where the keyboard differs from the base (origin device).
                recorded = try session.apply(.replaceKeymap(pull.keymap))
                try session.setDeviceKeymap(pull.keymap)
            }
            return (pull, changed, recorded)
        }
        log(
            .info,
            "pulled \(pull.0.bindings) binding(s) on \(pull.0.layers) layer(s) from \(state.alias) (\(address)): "
                + "\(pull.1) differed from the draft, \(pull.0.unknown) unknown")
        return Self.pullResult(pull.0, changed: pull.1, undoable: pull.2, driver: driver.kind)
    }

    /// Reads the keymap; a locked keyboard gets the unlock prompt and `unlockTimeout` to be unlocked.
    func readKeymap(
        _ driver: any KeyboardDriver, _ state: KeyboardState, layout: PhysicalLayout, unlockTimeout: Duration
    ) async throws(DriverError) -> DeviceKeymap {
        do {
            return try await driver.readKeymap(layout: layout)
        } catch .locked(let message) {
            log(.notice, "\(state.alias) (\(state.address)) is locked: asking the user to unlock it")
            await promptUnlock(state.address)
            guard await driver.waitUntilUnlocked(timeout: unlockTimeout) else { throw .locked(message) }
            return try await driver.readKeymap(layout: layout)
        }
    }

    /// The `Pull` answer (``PullReport``).
    static func pullResult(_ pull: DevicePull, changed: Int, undoable: Bool, driver: DriverKind) -> PullReport {
        PullReport(
            changed: changed, bindings: pull.bindings, layers: pull.layers, deviceLayers: pull.deviceLayers,
            macros: pull.macros, unknown: pull.unknown, driver: driver.rawValue, undoable: undoable)
    }
}
