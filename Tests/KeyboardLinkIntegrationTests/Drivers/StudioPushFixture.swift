import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A daemon whose keyboard (beside `otherDevices`) is an Aula F87 running ZMK with Studio, answered by a simulated firmware that holds
/// its owner's keymap (`SimulatedOwnerKeymap`, not kblink's default). Once the firmware is attached (and unlocked),
/// kblinkd has read it into the base, as it does when a keyboard connects.
struct StudioPushFixture {
    let harness: DaemonHarness
    let keyboard: SimulatedStudioKeyboard
    let layout: PhysicalLayout
    let address = SimulatedStudioKeyboard.aulaF87Device.address

    /// Runs `body` with the daemon and the keyboard attached; `unlocked` presses the unlock key first. The firmware
    /// holds `layerCount` layers and can add `availableLayers` more.
    static func run<T>(
        unlocked: Bool = true, faults: Set<SimulatedStudioFirmware.Fault> = [], layerCount: Int = 4,
        availableLayers: Int = 0, otherDevices: [SimulatedDevice] = [],
        options: (inout KeyboardLinkService.Options) -> Void = { _ in }, log: DaemonHarness.Log? = nil,
        _ body: (StudioPushFixture, KeymapClient) async throws -> T
    ) async throws -> T {
        // The firmware attaches after the keyboard connected: the base is read once it is there, not on connection.
        try await withDaemon(
            devices: [SimulatedStudioKeyboard.aulaF87Device] + otherDevices,
            options: { given in
                given.readsKeymapOnConnect = false
                options(&given)
            }, log: log
        ) { harness in
            let layout = try PhysicalLayout.builtIn("aula-f87")
            let address = SimulatedStudioKeyboard.aulaF87Device.address
            let gatt = harness.bluez.gatt
            #expect(await eventually { await gatt.profile(for: address) != nil })
            let keyboard = SimulatedStudioKeyboard(
                firmware: SimulatedStudioKeyboard.firmware(
                    matching: layout, layerCount: layerCount, faults: faults, availableLayers: availableLayers),
                address: address, gatt: gatt)
            await keyboard.attach()
            if unlocked {
                await keyboard.unlock()
                await harness.service.readKeymapBases()
            }
            let fixture = StudioPushFixture(harness: harness, keyboard: keyboard, layout: layout)
            return try await KeymapFixture.withKeymap(harness, address) { keymap in
                try await body(fixture, keymap)
            }
        }
    }

    /// The position of a key in the layout's order (ZMK's key position).
    /// Brings the keyboard back as soon as BlueZ shows its link dropped, as BlueZ does for a trusted keyboard that
    /// advertises; the firmware locks on disconnect, and its owner unlocks it when kblinkd asks. The task answers
    /// whether the link dropped at all.
    func connectAgainOnceTheLinkDrops() -> Task<Bool, any Error> {
        let bluez = harness.bluez
        let address = address
        let keyboard = keyboard
        return Task {
            guard await eventually({ await bluez.device(address)?.connected == false }) else { return false }
            await keyboard.linkDropped()
            await keyboard.linkRestored()
            try await bluez.setConnected(address, true)
            await keyboard.unlock()
            return true
        }
    }

    func position(_ key: String) throws -> Int {
        try #require(layout.keys.firstIndex { $0.name.rawValue == key })
    }

    /// The Key Press binding of a keyboard-page usage, computed from ZMK's encoding (page << 16 | id).
    func keyPress(usage: UInt32) async -> StudioBehaviorBinding {
        let id = await keyboard.firmware.behaviorID(named: "Key Press") ?? 0
        return StudioBehaviorBinding(behaviorID: Int32(id), param1: 0x07 << 16 | usage)
    }

    /// The positions (layer, position) where two keymaps differ.
    static func differences(_ a: [[StudioBehaviorBinding]], _ b: [[StudioBehaviorBinding]]) -> [[Int]] {
        var result: [[Int]] = []
        for layer in 0..<min(a.count, b.count) {
            for position in 0..<min(a[layer].count, b[layer].count) where a[layer][position] != b[layer][position] {
                result.append([layer, position])
            }
        }
        return result
    }
}
