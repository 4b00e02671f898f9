import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// Desired state (issue 8): a keyboard whose profile says `applyOnConnect` gets its pushed keymap (the session's
/// base) re-applied each time it connects, when the keyboard no longer holds it.
///
/// One attempt per connection, in a task of its own (other D-Bus calls go on meanwhile), claimed like a push so
/// that a push and a re-apply never interleave. Only the drifted bindings are written, read back and saved; a
/// failure rolls back where the protocol allows, logs a warning and changes nothing in the profile.
extension KeymapWriter {
    /// The most drifted bindings one log line names.
    static let reapplyLogLimit = 5

    /// After a keyboard connected with its services resolved (once per connection): fills `Driver`, reads the
    /// keyboard's keymap into the base when the base is kblink's default, re-applies its profile when asked to,
    /// then asks a ZMK Studio keyboard whether it is locked (`StudioLock`) when neither told. The profile's settings are read first, so that what counts is the
    /// flag as it was when the keyboard connected, however long finding the driver takes.
    func keyboardBecameReady(_ address: BluetoothAddress) async {
        let settings = await keymaps.settings(for: address)
        await detectDriver(address)
        if timeouts.readsKeymapOnConnect { await readBaseOnFirstContact(address) }
        await reapplyOnConnect(address, settings: settings)
        // Last: the re-apply's driver may have learned it already.
        if timeouts.readsKeymapOnConnect { await readStudioLock(address) }
    }

    /// Re-applies the keyboard's pushed keymap if `settings` (its profile's) ask for it and the keyboard drifted.
    func reapplyOnConnect(_ address: BluetoothAddress, settings: ProfileSettings?) async {
        guard let settings, let state = await registry.keyboard(address) else { return }
        let label = "\(state.alias) (\(address))"
        guard settings.reappliesOnConnect else {
            let reason = settings.applyOnConnect ? "on, but no keymap was pushed yet" : "off"
            log(.debug, "\(label): apply on connect is \(reason); the keyboard's keymap is left as it is")
            return
        }
        guard await registry.isConnected(state) else { return }
        guard await pushes.begin(address) else {
            log(.info, "\(label): a push is running; the profile is not re-applied on this connection")
            return
        }
        let end = await performReapply(state)
        // Released before anything is said, so that whoever acts on the log line or the signal can push at once.
        await pushes.end(address)
        switch end {
        case .failed(let reason):
            log(
                .warning,
                "\(label): could not re-apply the profile on connect: \(reason); the profile is unchanged, the next "
                    + "connection tries again ('kblink keymap push' now)")
        case .noDrift:
            log(.debug, "\(label): the keyboard holds its profile; nothing to re-apply")
        case .reapplied(let outcome):
            log(.notice, "\(label): " + Self.reapplySummary(outcome))
            try? await connection.emit(
                KBlinkContract.Keymap.reappliedSignal, at: KBlink.keyboardPath(address),
                Reapplied(changes: Self.reappliedChanges(outcome)))
        case .skipped:
            break
        }
    }

    /// How a re-apply ended.
    enum ReapplyEnd {
        /// The keyboard has no session any more.
        case skipped
        /// Nothing was re-applied, for this reason.
        case failed(String)
        /// The keyboard held its pushed keymap.
        case noDrift
        /// The drifted bindings were written back, verified and saved.
        case reapplied(DriverPush.Outcome)
    }

    /// The re-apply itself, with the keyboard claimed; never throws.
    private func performReapply(_ state: KeyboardState) async -> ReapplyEnd {
        let address = state.address
        guard let session = await keymaps.session(for: address) else { return .skipped }
        let driver: any KeyboardDriver
        switch await reapplyDriver(state) {
        case .success(let found): driver = found
        case .failure(let reason): return .failed(reason.message)
        }
        let base = session.base
        let pusher = DriverPush(driver: driver, layout: session.layout)
        let outcome: DriverPush.Outcome
        do throws(DriverPush.Failure) {
            do throws(DriverPush.Failure) {
                outcome = try await pusher.run(desired: base, dryRun: false, verify: true)
            } catch let failure where failure.written == 0 && failure.error.isLocked {
                log(.notice, "\(state.alias) (\(address)) is locked: asking the user to unlock it to check its keymap")
                await promptUnlock(address)
                guard await driver.waitUntilUnlocked(timeout: timeouts.reapplyUnlock) else { throw failure }
                outcome = try await pusher.run(desired: base, dryRun: false, verify: true)
            }
        } catch {
            await release(driver, of: state.address)
            return .failed(error.description)
        }
        await release(driver, of: state.address)
        return outcome.writes.isEmpty ? .noDrift : .reapplied(outcome)
    }

    /// Why no driver was found for a re-apply.
    struct NoDriver: Error {
        var message: String
    }

    /// The keyboard's driver, waiting a little for it to appear (a VIA hidraw node follows the Bluetooth
    /// connection); a reason when there is none or the keyboard disconnected.
    private func reapplyDriver(_ state: KeyboardState) async -> Result<any KeyboardDriver, NoDriver> {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeouts.reapplyDriver)
        while true {
            do {
                if let driver = try await makeDriver(state) { return .success(driver) }
            } catch {
                return .failure(NoDriver(message: "\(error)"))
            }
            guard clock.now < deadline, await registry.isConnected(state) else { break }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return .failure(
            NoDriver(message: "the keyboard speaks no firmware protocol kblink can write (ZMK Studio or VIA)"))
    }

    /// `re-applied the profile: 3 binding(s) had drifted (layer 0 CAPS KC_A->KC_LCTL, ...)`, naming at most
    /// `reapplyLogLimit` bindings.
    static func reapplySummary(_ outcome: DriverPush.Outcome) -> String {
        let named = zip(outcome.writes, outcome.previous).prefix(reapplyLogLimit).map { write, old in
            "layer \(write.layer) \(write.key) \(old.description)->\(write.action.description)"
        }
        let rest = outcome.writes.count - named.count
        return "re-applied the profile: \(outcome.writes.count) binding(s) had drifted ("
            + named.joined(separator: ", ") + (rest > 0 ? ", and \(rest) more" : "") + ")"
    }
}
