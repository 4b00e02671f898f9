import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The base of a keyboard's draft is what kblinkd last read from or wrote to the keyboard. When a keyboard with a
/// driver connects and its base was never read from it (kblink's default keymap for the layout), kblinkd reads the
/// keyboard's keymap into the base and replays the draft's edits onto it, so that a push writes only those edits.
///
/// The read is queued, not exclusive (`KeyboardPushes`): a push or pull that arrives meanwhile waits for it.
extension KeymapWriter {
    /// After a keyboard connected with its services resolved: reads its keymap into the base when the base is
    /// kblink's default. A keyboard that is locked (ZMK Studio) or cannot be read is left for the first push,
    /// which reads it again (and asks for the unlock key).
    /// - Parameter waiting: wait for a push, pull or read of the keyboard that is running (else skip the read).
    func readBaseOnFirstContact(_ address: BluetoothAddress, waiting: Bool = false) async {
        guard await needsBase(address) else { return }
        guard await pushes.beginFirstContactRead(address, waiting: waiting) else { return }
        guard await needsBase(address), let state = await registry.keyboard(address) else {
            await pushes.end(address)
            return
        }
        let label = "\(state.alias) (\(address))"
        do {
            guard let driver = try await makeDriver(state) else {
                await pushes.end(address)
                return
            }
            do {
                let replayed = try await adoptKeyboardBase(state, driver: driver, unlockTimeout: nil)
                log(
                    .info,
                    "\(label): read its keymap into the base (\(replayed.layers) layer(s)); "
                        + "\(replayed.edits) draft edit(s) now apply to it")
            } catch {
                log(
                    .notice,
                    "\(label): could not read its keymap on connection (\(error)); the first push reads it")
            }
            await release(driver, of: state.address)
        } catch {
            log(.notice, "\(label): could not reach its firmware on connection (\(error)); the first push reads it")
        }
        await pushes.end(address)
    }

    /// Whether a keyboard is connected and its base is kblink's default.
    private func needsBase(_ address: BluetoothAddress) async -> Bool {
        guard let settings = await keymaps.settings(for: address), !settings.baseIsFromKeyboard,
            let state = await registry.keyboard(address)
        else { return false }
        return await registry.isConnected(state)
    }

    /// What reading a keyboard into the base did: the layers read and the draft's edits replayed onto them.
    struct AdoptedBase: Sendable {
        var layers: Int
        var edits: Int
    }

    /// Reads the keymap the keyboard holds into the base (origin `keyboard`, now) and replays the draft's edits onto
    /// it, saved before it returns. Needs the keyboard claimed.
    /// - Parameter unlockTimeout: how long a locked keyboard gets to be unlocked after the prompt; nil asks nobody.
    /// - Throws: `DriverError` when the keyboard cannot be read; ``KBlinkError`` when the edits do not apply to what
    ///   the keyboard holds (the session is then unchanged) or the profile cannot be saved.
    @discardableResult
    func adoptKeyboardBase(_ state: KeyboardState, driver: any KeyboardDriver, unlockTimeout: Duration?)
        async throws -> AdoptedBase
    {
        let layout = try await keymaps.read(state.address) { $0.layout }
        let device: DeviceKeymap
        if let unlockTimeout {
            device = try await readKeymap(driver, state, layout: layout, unlockTimeout: unlockTimeout)
        } else {
            device = try await driver.readKeymap(layout: layout)
        }
        let now = WallClockTime.now().secondsSince1970
        return try await keymaps.editProfile(state.address) { session, settings throws(KeymapError) in
            try session.rebaseOnKeyboard(device)
            settings.baseOrigin = .keyboard
            settings.baseSince = now
            return AdoptedBase(layers: session.base.layerCount, edits: session.draftRecord.cursor)
        }
    }
}

extension KeymapEditSession {
    /// Makes what the keyboard holds the base and replays the draft's edits onto it (on the keyboard's layers, or,
    /// when an edit needs more, on the base's layer count).
    /// - Throws: `KeymapError` when the edits do not apply either way; the session is then unchanged.
    mutating func rebaseOnKeyboard(_ device: DeviceKeymap) throws(KeymapError) {
        let layerCount = min(max(device.layers.count, 1), Keymap.maximumLayers)
        let keyboard = DevicePull(
            device: device, layout: layout, layerCount: layerCount, macros: base.macros, names: base.layerNames
        ).keymap
        do {
            try rebase(onto: keyboard)
        } catch {
            guard base.layerCount > keyboard.layerCount else { throw error }
            try rebase(onto: keyboard.resized(toLayerCount: base.layerCount, for: layout))
        }
        try setDeviceKeymap(nil)
    }
}
