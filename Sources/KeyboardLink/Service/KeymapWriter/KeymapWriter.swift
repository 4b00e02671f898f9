import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// Writes keymaps to keyboards and reads them back through their drivers: `Push`, `Pull`, the re-apply on connect
/// (issue 8), and the detection that fills each keyboard's `Driver` property. One of these runs per keyboard at a
/// time (``KeyboardPushes``).
actor KeymapWriter {
    /// How long the writer waits for keyboards.
    struct Timeouts: Sendable {
        /// How long a re-apply on connect waits for a locked ZMK keyboard to be unlocked.
        var reapplyUnlock: Duration
        /// How long a re-apply on connect waits for the keyboard's driver.
        var reapplyDriver: Duration
        /// How long a ZMK Studio request may go unanswered before the keyboard counts as asleep.
        var studioRequest: Duration
        /// How long a pull whose link dropped waits for the keyboard to come back before it reads again.
        var linkReturn: Duration = .seconds(20)
        /// Whether a keyboard whose base is kblink's default is read into the base when it connects (and a ZMK
        /// Studio keyboard asked whether it is locked).
        var readsKeymapOnConnect = true
    }

    let connection: BusConnection
    let bluez: BlueZModel
    let registry: KeyboardRegistry
    let keymaps: KeymapSessions
    let pushes: KeyboardPushes
    let log: @Sendable (LogLevel, String) -> Void
    var timeouts: Timeouts
    /// Per keyboard, how many times a push or re-apply connected to its driver: a detection that started before
    /// the latest connection does not overwrite what that connection found.
    var driverConnections: [BluetoothAddress: Int] = [:]
    /// Per keyboard, which actions its firmware can hold, as its driver last learned it on this connection (the
    /// first-contact read, a push, pull, re-apply or check): `CheckAction` answers from it without claiming the
    /// keyboard. Dropped when the keyboard connects again (its firmware may have been flashed meanwhile).
    var actionSupport: [BluetoothAddress: DriverActionSupport] = [:]

    init(
        connection: BusConnection, bluez: BlueZModel, registry: KeyboardRegistry, keymaps: KeymapSessions,
        pushes: KeyboardPushes, timeouts: Timeouts, log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.connection = connection
        self.bluez = bluez
        self.registry = registry
        self.keymaps = keymaps
        self.pushes = pushes
        self.timeouts = timeouts
        self.log = log
    }

    /// Applies new timeouts (SIGHUP).
    func reconfigure(_ timeouts: Timeouts) {
        self.timeouts = timeouts
    }

    /// Closes a driver, keeping what it learned of the actions the firmware can hold (`actionSupport`).
    func release(_ driver: any KeyboardDriver, of address: BluetoothAddress) async {
        if let support = await driver.actionSupport() { actionSupport[address] = support }
        await driver.close()
    }

    /// Asks the user to unlock a locked keyboard: `PairingPrompt` with the `unlock` kind.
    func promptUnlock(_ address: BluetoothAddress) async {
        let prompt = PairingPromptSignal(
            keyboard: KBlink.keyboardPath(address), prompt: PairingPromptRelay(kind: .unlock, code: "", entered: 0))
        try? await connection.emit(KBlinkContract.Manager.pairingPromptSignal, at: KBlink.managerPath, prompt)
    }
}
