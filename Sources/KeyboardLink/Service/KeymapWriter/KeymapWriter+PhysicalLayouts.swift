import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// `org.kblink1.Keymap.GetPhysicalLayouts` and `SetPhysicalLayout` (docs/dbus-api.md): the physical layouts a ZMK
/// Studio keyboard's firmware knows, and switching the active one. A switch moves the key positions, so the keymap
/// is read again afterwards as `Pull` reads it; a draft with edits a push has not written is never read over
/// unless the caller says so (and then the re-read is one edit: `Undo` brings the edits back).
extension KeymapWriter {
    /// The keyboard's physical layouts, in the firmware's order.
    /// - Throws: ``KBlinkError``: `NotConnected`, `NotSupported` (no driver, or one without physical layouts),
    ///   `Locked`, `Busy`, `Failed`.
    func physicalLayouts(_ address: BluetoothAddress, unlockTimeout: Duration = PushOptions().unlockTimeout)
        async throws -> [PhysicalLayoutEntry]
    {
        try await withClaimedDriver(address, doing: "read the physical layouts of") { state, driver in
            let layouts = try await unlocking(state, driver, unlockTimeout) { () async throws(DriverError) in
                try await driver.physicalLayouts()
            }
            return layouts.map {
                PhysicalLayoutEntry(name: $0.name, keys: UInt32(clamping: $0.keys), active: $0.active)
            }
        }
    }

    /// Makes the physical layout at `index` the active one, saves it on the keyboard, then reads the keymap again.
    /// - Parameter force: switch even when the draft has edits a push has not written.
    /// - Throws: ``KBlinkError``: `Conflict` (unpushed edits, without `force`), as `physicalLayouts` otherwise; the
    ///   draft is unchanged when the switch fails.
    func setPhysicalLayout(
        _ address: BluetoothAddress, index: Int, force: Bool,
        unlockTimeout: Duration = PushOptions().unlockTimeout
    ) async throws -> PullReport {
        try await withClaimedDriver(address, doing: "switch the physical layout of") { state, driver in
            let session = try await keymaps.read(address) { $0 }
            if session.isDirty && !force {
                throw KBlinkError.conflict(
                    "the draft of \(state.alias) has edits a push has not written, and switching the physical layout "
                        + "moves the keys the keymap is read on; push them ('kblink keymap push') or discard them "
                        + "first, or switch anyway with --force (the keymap read afterwards is one edit: "
                        + "'kblink keymap undo' brings the draft back)")
            }
            try await unlocking(state, driver, unlockTimeout) { () async throws(DriverError) in
                try await driver.setActivePhysicalLayout(index)
                try await driver.save()
            }
            log(.info, "switched \(state.alias) (\(address)) to physical layout \(index)")
            return state
        } then: { state in
            // The driver is released: the keymap is read as a pull reads it, on the new positions.
            try await performPull(state, unlockTimeout: unlockTimeout)
        }
    }

    /// Claims the keyboard as a pull does, makes its driver, runs `body`, releases both; then `then` with the
    /// keyboard still claimed.
    private func withClaimedDriver<Value: Sendable, Answer: Sendable>(
        _ address: BluetoothAddress, doing what: String,
        _ body: (KeyboardState, any KeyboardDriver) async throws -> Value,
        then: (Value) async throws -> Answer
    ) async throws -> Answer {
        guard let state = await registry.keyboard(address) else {
            throw KBlinkError.notFound("keyboard \(address) is no longer known")
        }
        guard await registry.isConnected(state) else {
            throw KBlinkError.notConnected("\(state.alias) is not connected; wake it by pressing a key, then retry")
        }
        guard await pushes.begin(address) else {
            throw KBlinkError.busy(
                "a push, pull or re-apply on connect of \(state.alias) is running; wait for it to finish, then retry")
        }
        do {
            guard let driver = try await makeDriver(state) else {
                throw KBlinkError.notSupported(
                    "cannot \(what) \(state.alias): it speaks no firmware protocol kblink can read (ZMK Studio or VIA)")
            }
            let value: Value
            do {
                value = try await body(state, driver)
            } catch let error as DriverError {
                await release(driver, of: address)
                log(.notice, "could not \(what) \(state.alias) (\(address)): \(error)")
                throw error.kblinkError(message: "cannot \(what) \(state.alias): \(error.message)")
            } catch {
                await release(driver, of: address)
                throw error
            }
            await release(driver, of: address)
            let result = try await then(value)
            await pushes.end(address)
            return result
        } catch {
            await pushes.end(address)
            throw error
        }
    }

    private func withClaimedDriver<Value: Sendable>(
        _ address: BluetoothAddress, doing what: String,
        _ body: (KeyboardState, any KeyboardDriver) async throws -> Value
    ) async throws -> Value {
        try await withClaimedDriver(address, doing: what, body, then: { $0 })
    }

    /// Runs `body`; a locked keyboard gets the unlock prompt and `timeout` to be unlocked, then `body` again.
    private func unlocking<Value>(
        _ state: KeyboardState, _ driver: any KeyboardDriver, _ timeout: Duration,
        _ body: () async throws(DriverError) -> Value
    ) async throws(DriverError) -> Value {
        do {
            return try await body()
        } catch .locked(let message) {
            log(.notice, "\(state.alias) (\(state.address)) is locked: asking the user to unlock it")
            await promptUnlock(state.address)
            guard await driver.waitUntilUnlocked(timeout: timeout) else { throw .locked(message) }
            return try await body()
        }
    }
}
