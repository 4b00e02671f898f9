import KeyboardLinkBlueZ
import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkPresence

/// `HardwareKeyboardReasons`, the grace period, virtual devices and udev's `KBLINK_IGNORE=1`.
@Suite struct PresenceReasonsTests {
    typealias Fixtures = InputDevicesFixtures

    @Test func everyKeyboardLookedAtHasAReason() throws {
        let devices = try Fixtures.devices(Fixtures.laptop, Fixtures.usbKeyboard, Fixtures.keydVirtualKeyboard)
        let aula = ConnectedBluetoothKeyboard(address: try BluetoothAddress("C8:7F:54:0A:1B:2C"), name: "Aula F87")
        let result = PresenceEvaluator().evaluate(evdevDevices: devices, bluetoothKeyboards: [aula])
        #expect(
            result.reasons.map(\.description) == [
                "counts bluetooth C8:7F:54:0A:1B:2C \"Aula F87\": Bluetooth keyboard that BlueZ reports connected",
                "counts evdev /dev/input/event5 \"Logitech USB Keyboard\": usb keyboard; policy external counts it",
                "ignored evdev /dev/input/event3 \"AT Translated Set 2 keyboard\": i8042 keyboard; policy external "
                    + "does not count it",
                "ignored evdev /dev/input/event30 \"keyd virtual keyboard\": virtual keyboard (a remapper such as keyd "
                    + "or kanata, ydotool or another uinput device); [Presence] CountVirtualDevices=true counts it",
            ])
        #expect(result.keyboards.map(\.id) == ["C8:7F:54:0A:1B:2C", "/dev/input/event5"])
    }

    @Test func virtualKeyboardsCountWhenConfigured() throws {
        let devices = try Fixtures.devices(Fixtures.keydVirtualKeyboard)
        #expect(!PresenceEvaluator().evaluate(evdevDevices: devices, bluetoothKeyboards: []).hardwareKeyboardAttached)
        let counted = PresenceEvaluator(policy: .bluetooth, countsVirtualDevices: true).evaluate(
            evdevDevices: devices, bluetoothKeyboards: [])
        #expect(counted.keyboards.map(\.name) == ["keyd virtual keyboard"])
        #expect(counted.reasons.first?.counts == true)
    }

    @Test func udevIgnoreWinsOverEveryPolicy() throws {
        var devices = try Fixtures.devices(Fixtures.usbKeyboard)
        devices[0].ignoredByUdev = true
        for policy in PresencePolicy.allCases {
            let result = PresenceEvaluator(policy: policy, countsVirtualDevices: true).evaluate(
                evdevDevices: devices, bluetoothKeyboards: [])
            #expect(!result.hardwareKeyboardAttached)
            #expect(result.reasons.first?.reason == "udev gives it KBLINK_IGNORE=1")
        }
    }

    // MARK: Grace period

    static let attached = PresenceResult(
        keyboards: [HardwareKeyboard(source: .bluetooth, id: "C8:7F:54:0A:1B:2C", name: "Aula F87")],
        reasons: [
            HardwareKeyboardReason(
                source: .bluetooth, id: "C8:7F:54:0A:1B:2C", name: "Aula F87", counts: true, reason: "connected")
        ])
    static let none = PresenceResult(keyboards: [])

    @Test func detachWaitsForTheGracePeriodAndAttachDoesNot() {
        var grace = PresenceGrace(period: .seconds(5))
        let start = ContinuousClock.now
        #expect(grace.update(Self.none, now: start).published == Self.none)
        #expect(grace.update(Self.attached, now: start).published == Self.attached)

        let held = grace.update(Self.none, now: start + .seconds(1))
        #expect(held.published.hardwareKeyboardAttached)
        #expect(held.published.reasons.first?.reason.hasPrefix("gone; still counted for the 5 s grace period") == true)
        #expect(held.wakeAt == start + .seconds(6))
        #expect(grace.isHolding)

        // Asked again before the end: still held, the same deadline.
        #expect(grace.update(Self.none, now: start + .seconds(4)).wakeAt == start + .seconds(6))
        let released = grace.update(Self.none, now: start + .seconds(6))
        #expect(released.published == Self.none)
        #expect(released.wakeAt == nil)
        #expect(!grace.isHolding)
    }

    @Test func aKeyboardBackWithinTheGracePeriodNeverShowsAsGone() {
        var grace = PresenceGrace(period: .seconds(5))
        let start = ContinuousClock.now
        _ = grace.update(Self.attached, now: start)
        #expect(grace.update(Self.none, now: start + .seconds(1)).published.hardwareKeyboardAttached)
        #expect(grace.update(Self.attached, now: start + .seconds(2)).published == Self.attached)
        // A new departure starts a new grace period.
        #expect(grace.update(Self.none, now: start + .seconds(3)).wakeAt == start + .seconds(8))
    }

    @Test func zeroGracePublishesAtOnce() {
        var grace = PresenceGrace(period: .zero)
        let start = ContinuousClock.now
        _ = grace.update(Self.attached, now: start)
        #expect(grace.update(Self.none, now: start).published == Self.none)
    }

    @Test func durationsAreSaidPlainly() {
        #expect(PresenceGrace.describe(.seconds(5)) == "5 s")
        #expect(PresenceGrace.describe(.milliseconds(1500)) == "1.5 s")
        #expect(PresenceGrace.describe(.milliseconds(250)) == "250 ms")
    }

    // MARK: udev

    @Test func udevDatabaseMarksIgnoredDevices() throws {
        let database = try TemporaryDirectory()
        let sysfs = try TemporaryDirectory()
        defer {
            database.remove()
            sysfs.remove()
        }
        let devices = try Fixtures.devices(Fixtures.laptop, Fixtures.usbKeyboard).filter(\.isKeyboard)
        let udev = UdevDatabase(directory: database.path, sysfsClassDirectory: sysfs.path)
        #expect(!devices.contains(where: udev.isIgnored))

        // On the input device (input5, the USB keyboard)...
        try database.write("S:input/by-id/x\nE:ID_INPUT_KEYBOARD=1\nE:KBLINK_IGNORE=1\n", to: "+input:input5")
        #expect(devices.map(udev.isIgnored) == [false, true])
        // ...or on the event node, found by the minor sysfs gives (event3: 13:67).
        try FileStore().makeDirectory(sysfs.path + "/event3")
        try sysfs.write("13:67\n", to: "event3/dev")
        try database.write("E:KBLINK_IGNORE=1\n", to: "c13:67")
        #expect(devices.map(udev.isIgnored) == [true, true])
        // Another value does not count.
        try database.write("E:KBLINK_IGNORE=0\n", to: "c13:67")
        #expect(devices.map(udev.isIgnored) == [false, true])
    }

    @Test func evdevMonitorMarksAndWatchesTheUdevDatabase() async throws {
        let watched = try TemporaryDirectory()
        let proc = try TemporaryDirectory()
        let database = try TemporaryDirectory()
        defer {
            watched.remove()
            proc.remove()
            database.remove()
        }
        let devicesFile = try proc.write(
            Fixtures.file(Fixtures.usbKeyboard, Fixtures.keydVirtualKeyboard), to: "devices")
        let monitor = try EvdevMonitor(
            directory: watched.path, devicesFile: devicesFile, includeVirtual: true,
            udev: UdevDatabase(directory: database.path, sysfsClassDirectory: database.path + "/none"))
        defer { monitor.cancel() }
        var updates = monitor.keyboards.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.map(\.name) == ["Logitech USB Keyboard", "keyd virtual keyboard"])
        #expect(first?.map(\.ignoredByUdev) == [false, false])
        // udev's entry arrives after the node: the database directory is watched too.
        try database.write("E:KBLINK_IGNORE=1\n", to: "+input:input5")
        #expect(await updates.next()?.map(\.ignoredByUdev) == [true, false])
    }
}
