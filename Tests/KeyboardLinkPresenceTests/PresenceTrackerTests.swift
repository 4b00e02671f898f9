import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkPresence

/// The tracker alone, with no bus and no timer: what it publishes as its inputs change, the grace period it holds,
/// and the keyboards that cannot type.
@Suite struct PresenceTrackerTests {
    typealias Fixtures = InputDevicesFixtures

    static let aulaAddress = "C8:7F:54:0A:1B:2C"
    /// The LE keyboard of ``InputDevicesFixtures/bluetoothLEKeyboard`` (its `Uniq`).
    static let leAddress = "F4:12:FA:6B:33:9D"

    static func aula(canType: Bool = true) throws -> PresenceTracker.BluetoothKeyboard {
        PresenceTracker.BluetoothKeyboard(
            address: try BluetoothAddress(aulaAddress), name: "Aula F87", canType: canType)
    }

    static let aulaEntry = HardwareKeyboard(source: .bluetooth, id: aulaAddress, name: "Aula F87")

    @Test func nothingFedPublishesNothing() {
        var tracker = PresenceTracker()
        #expect(!tracker.published.hardwareKeyboardAttached)
        #expect(!tracker.inputDevicesReported)
        // The Manager starts with no keyboard: nothing to publish, no timer.
        #expect(tracker.publish(now: .now) == PresenceTracker.Publication(changed: nil, wakeAt: nil))
    }

    @Test func aConnectedKeyboardIsPublishedOnce() throws {
        var tracker = PresenceTracker()
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        let first = tracker.publish(now: .now)
        #expect(first.changed?.keyboards == [Self.aulaEntry])
        #expect(first.changed?.reasons.map(\.reason) == ["Bluetooth keyboard that BlueZ reports connected"])
        #expect(first.wakeAt == nil)
        #expect(tracker.published == first.changed)
        // The same inputs again: nothing new to publish.
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        #expect(tracker.publish(now: .now).changed == nil)
    }

    @Test func aKeyboardThatCannotTypeDoesNotCount() throws {
        var tracker = PresenceTracker()
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        _ = tracker.publish(now: .now)
        // Health failed: connected, but no longer counted nor listed (no grace period here).
        tracker.updateBluetooth(connected: [try Self.aula(canType: false)], disconnected: [])
        let failed = tracker.publish(now: .now)
        #expect(failed.changed == PresenceResult(keyboards: []))
        #expect(!tracker.published.hardwareKeyboardAttached)
        // Healed: it counts again at once.
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        #expect(tracker.publish(now: .now).changed?.keyboards == [Self.aulaEntry])
    }

    @Test func aKeyboardThatStopsTypingIsHeldForTheGracePeriod() throws {
        var tracker = PresenceTracker(settings: PresenceSettings(gracePeriod: .seconds(5)))
        let start = ContinuousClock.now
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        _ = tracker.publish(now: start)
        tracker.updateBluetooth(connected: [try Self.aula(canType: false)], disconnected: [])
        let held = tracker.publish(now: start + .seconds(1))
        #expect(held.changed?.keyboards == [Self.aulaEntry])
        #expect(held.changed?.reasons.first?.reason.hasPrefix("gone; still counted for the 5 s grace period") == true)
        #expect(held.wakeAt == start + .seconds(6))
        #expect(tracker.isHolding)
        // The timer fires at the deadline: released.
        let released = tracker.publish(now: start + .seconds(6))
        #expect(released == PresenceTracker.Publication(changed: PresenceResult(keyboards: []), wakeAt: nil))
        #expect(!tracker.isHolding)
    }

    @Test func aKeyboardBackWithinTheGracePeriodNeverShowsAsGone() throws {
        var tracker = PresenceTracker(settings: PresenceSettings(gracePeriod: .seconds(5)))
        let start = ContinuousClock.now
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        let attached = try #require(tracker.publish(now: start).changed)
        tracker.updateBluetooth(connected: [], disconnected: [try BluetoothAddress(Self.aulaAddress)])
        #expect(tracker.publish(now: start + .seconds(1)).changed?.hardwareKeyboardAttached == true)
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        // Back as it was before the hold: the plain result again, no timer.
        #expect(
            tracker.publish(now: start + .seconds(2)) == PresenceTracker.Publication(changed: attached, wakeAt: nil))
    }

    @Test func evdevKeyboardsCountUnderThePolicyAndReconfiguringJudgesAgain() throws {
        var tracker = PresenceTracker(policy: .external)
        tracker.updateEvdevDevices(try Fixtures.devices(Fixtures.laptop, Fixtures.usbKeyboard))
        #expect(tracker.inputDevicesReported)
        #expect(tracker.publish(now: .now).changed?.keyboards.map(\.name) == ["Logitech USB Keyboard"])

        tracker.reconfigure(policy: .bluetooth, settings: PresenceSettings())
        #expect(tracker.policy == .bluetooth)
        let bluetoothOnly = tracker.publish(now: .now)
        #expect(bluetoothOnly.changed?.hardwareKeyboardAttached == false)
        #expect(bluetoothOnly.changed?.reasons.map(\.counts) == [false, false])

        tracker.reconfigure(policy: .any, settings: PresenceSettings())
        #expect(
            tracker.publish(now: .now).changed?.keyboards.map(\.name) == [
                "AT Translated Set 2 keyboard", "Logitech USB Keyboard",
            ])
    }

    @Test func reconfiguringTheGracePeriodAwayEndsAHold() throws {
        var tracker = PresenceTracker(settings: PresenceSettings(gracePeriod: .seconds(300)))
        let start = ContinuousClock.now
        tracker.updateBluetooth(connected: [try Self.aula()], disconnected: [])
        _ = tracker.publish(now: start)
        tracker.updateBluetooth(connected: [], disconnected: [])
        #expect(tracker.publish(now: start + .seconds(1)).wakeAt == start + .seconds(301))
        tracker.reconfigure(policy: .default, settings: PresenceSettings(gracePeriod: .zero))
        #expect(tracker.settings.gracePeriod == .zero)
        let released = tracker.publish(now: start + .seconds(2))
        #expect(released == PresenceTracker.Publication(changed: PresenceResult(keyboards: []), wakeAt: nil))
    }

    @Test func virtualKeyboardsCountWhenTheSettingsSaySo() throws {
        var tracker = PresenceTracker()
        tracker.updateEvdevDevices(try Fixtures.devices(Fixtures.keydVirtualKeyboard))
        let ignored = tracker.publish(now: .now)
        #expect(ignored.changed?.hardwareKeyboardAttached == false)
        #expect(ignored.changed?.reasons.map(\.counts) == [false])
        tracker.reconfigure(policy: .default, settings: PresenceSettings(countsVirtualDevices: true))
        #expect(tracker.publish(now: .now).changed?.keyboards.map(\.name) == ["keyd virtual keyboard"])
    }

    @Test func theInputNodeOfADisconnectedKeyboardDoesNotCount() throws {
        var tracker = PresenceTracker()
        let le = try BluetoothAddress(Self.leAddress)
        tracker.updateEvdevDevices(try Fixtures.devices(Fixtures.bluetoothLEKeyboard))
        #expect(tracker.hasInputDevice(for: le))
        #expect(!tracker.hasInputDevice(for: try BluetoothAddress(Self.aulaAddress)))
        // BlueZ has not said anything yet: the node counts by itself (bus bluetooth).
        #expect(tracker.publish(now: .now).changed?.keyboards.map(\.source) == [.evdev])
        // BlueZ reports the keyboard disconnected: its node outlives the link and no longer counts.
        tracker.updateBluetooth(connected: [], disconnected: [le])
        let gone = tracker.publish(now: .now)
        #expect(gone.changed?.hardwareKeyboardAttached == false)
        #expect(
            gone.changed?.reasons.first?.reason == "input node of a Bluetooth keyboard that BlueZ reports disconnected")
        // Connected again: listed once, as BlueZ's keyboard.
        tracker.updateBluetooth(
            connected: [PresenceTracker.BluetoothKeyboard(address: le, name: "Aula F87 (alias)")], disconnected: [])
        #expect(
            tracker.publish(now: .now).changed?.keyboards == [
                HardwareKeyboard(source: .bluetooth, id: Self.leAddress, name: "Aula F87 (alias)")
            ])
    }
}
