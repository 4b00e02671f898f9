import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Keymap.Push` to a simulated ZMK Studio keyboard: the real service on a private bus, the simulated
/// BlueZ's GATT server answering with a simulated Studio firmware.
@Suite("Push to a ZMK Studio keyboard")
struct StudioPushTests {
    @Test("a push writes exactly the edited bindings, saves them, and makes them the new base")
    func pushWritesTheDiff() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            try await keymap.setBinding(layer: 1, key: "A", action: "KC_1")
            let watcher = try await fixture.harness.bus.connect()
            let progress = try await watcher.signals(
                KBlinkContract.Keymap.pushProgressSignal, at: KBlink.keyboardPath(fixture.address))
            let result = try await keymap.push()
            #expect(result.written == 2)
            var steps: [PushProgress] = []
            // Closing the connection ends the stream, so a missing signal fails the test instead of hanging it.
            let bound = Task {
                try? await Task.sleep(for: .seconds(30))
                await watcher.close()
            }
            defer { bound.cancel() }
            for await signal in progress {
                steps.append(signal.body)
                if signal.body == PushProgress(done: 2, total: 2) { break }
            }
            #expect(steps.map { [$0.done, $0.total] } == [[0, 2], [1, 2], [2, 2]])
            await watcher.close()
            #expect(result.saved && result.verified && !result.dryRun)
            #expect(result.driver == "zmk-studio")
            let firmware = await fixture.keyboard.firmware
            #expect(!firmware.hasUnsavedChanges)
            let caps = try fixture.position("CAPS")
            let a = try fixture.position("A")
            #expect(StudioPushFixture.differences(original, firmware.savedKeymap) == [[0, caps], [1, a]])
            #expect(firmware.savedKeymap[0][caps] == (await fixture.keyPress(usage: 0xE0)))
            #expect(firmware.savedKeymap[1][a] == (await fixture.keyPress(usage: 0x1E)))
            let state = try await keymap.state()
            #expect(!state.dirty)
            #expect(try await keymap.diff().isEmpty)
            let again = try await keymap.push()
            #expect(again.written == 0)
        }
    }

    @Test("a dry run lists what would be written and writes nothing")
    func dryRun() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            let result = try await keymap.push(dryRun: true)
            #expect(result.dryRun && !result.saved && result.written == 0)
            #expect(result.changes.map(\.key) == ["ESC"])
            // The keyboard holds its owner's keymap: ESC was what the owner put there.
            let owners = SimulatedOwnerKeymap.keymap(for: fixture.layout, layerCount: 4)
            #expect(result.changes.first?.old == owners.action(layer: 0, key: try KeyName("ESC"))?.description)
            #expect(result.changes.first?.new == "KC_GRV")
            let firmware = await fixture.keyboard.firmware
            let writes = firmware.requestLog.filter {
                if case .keymap(.setLayerBinding) = $0.subsystem { return true }
                if case .keymap(.saveChanges) = $0.subsystem { return true }
                return false
            }
            #expect(writes.isEmpty)
            #expect(try await keymap.state().dirty)
        }
    }

    @Test("a locked keyboard prompts for the unlock key and the push continues once it is pressed")
    func lockedThenUnlocked() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_ESC")
            let watcher = try await fixture.harness.bus.connect()
            let prompts = try await watcher.subscribe(
                to: MatchRule(
                    interface: KBlink.managerInterface, member: KBlinkContract.Manager.pairingPromptSignal.name))
            let push = Task { try await keymap.push(unlockTimeout: 120) }
            let prompt = await first(of: prompts, timeout: .seconds(60))
            let body = try PairingPromptSignal(body: try #require(prompt).body)
            #expect(body.prompt.kind == .unlock)
            #expect(body.keyboard == KBlink.keyboardPath(fixture.address))
            await fixture.keyboard.unlock()
            let result = try await push.value
            #expect(result.written == 1 && result.saved)
            let caps = try fixture.position("CAPS")
            #expect(await fixture.keyboard.firmware.savedKeymap[0][caps] == (await fixture.keyPress(usage: 0x29)))
            await watcher.close()
        }
    }

    @Test("a keyboard left locked gives org.kblink1.Error.Locked and keeps the draft")
    func staysLocked() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_ESC")
            await KeymapFixture.expectError(.locked, containing: ["studio_unlock"]) {
                _ = try await keymap.push(unlockTimeout: 0)
            }
            #expect(try await keymap.state().dirty)
            #expect(await fixture.keyboard.firmware.hasUnsavedChanges == false)
        }
    }

    @Test("a write refused part-way rolls the keyboard back and keeps the draft")
    func faultRollsBack() async throws {
        try await StudioPushFixture.run(faults: [.failSetLayerBinding(call: 2)]) { fixture, keymap in
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            try await keymap.setBinding(layer: 2, key: "Q", action: "KC_1")
            await KeymapFixture.expectError(.failed, containing: ["rolled back", "draft is kept"]) {
                _ = try await keymap.push()
            }
            let firmware = await fixture.keyboard.firmware
            #expect(firmware.activeKeymap == original)
            #expect(firmware.savedKeymap == original)
            #expect(!firmware.hasUnsavedChanges)
            #expect(try await keymap.diff().count == 3)
            #expect(try await keymap.state().dirty)
        }
    }

    @Test("the link dropped mid-push gives NotConnected, saves nothing and keeps the draft")
    func dropMidPush() async throws {
        // Reading takes 9 requests (behaviour list, 6 behaviour details, keymap, physical layouts), once when the
        // base is read and once when the push starts: the link drops after the second of three writes is answered.
        try await StudioPushFixture.run(faults: [.dropConnection(afterRequests: 20)]) { fixture, keymap in
            let bluez = fixture.harness.bluez
            let address = fixture.address
            await fixture.keyboard.setOnLinkDropped { try? await bluez.setConnected(address, false) }
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            try await keymap.setBinding(layer: 2, key: "Q", action: "KC_1")
            await KeymapFixture.expectError(.notConnected, containing: ["draft is kept", "push again"]) {
                _ = try await keymap.push()
            }
            let firmware = await fixture.keyboard.firmware
            #expect(firmware.savedKeymap == original)
            #expect(firmware.requestLog.count == 20)
            #expect(try await keymap.diff().count == 3)
            #expect(try await keymap.state().dirty)
        }
    }

    @Test("a link that drops as the push connects and comes back: the push connects again and writes")
    func linkDropsBeforeWritingAndComesBack() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let bluez = fixture.harness.bluez
            let address = fixture.address
            let keyboard = fixture.keyboard
            let original = await keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let sessions = await bluez.gatt.statistics(for: address).notifySessionsStarted
            await bluez.gatt.setFaults(SimulatedGATTFaults(dropLinkAtStartNotify: 1), for: address)
            let comesBack = fixture.connectAgainOnceTheLinkDrops()
            let result = try await keymap.push()
            #expect(try await comesBack.value)
            #expect(result.written == 1 && result.saved)
            let caps = try fixture.position("CAPS")
            let firmware = await keyboard.firmware
            #expect(StudioPushFixture.differences(original, firmware.savedKeymap) == [[0, caps]])
            #expect(firmware.savedKeymap[0][caps] == (await fixture.keyPress(usage: 0xE0)))
            #expect(try await keymap.diff().isEmpty)
            // The session that lost its link, then the one that wrote.
            #expect(await bluez.gatt.statistics(for: address).notifySessionsStarted == sessions + 1)
        }
    }

    @Test("a push refused NotConnected while BlueZ disconnects the keyboard: pushed again once it is back")
    func pushDuringDisconnectIsRetried() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let bluez = fixture.harness.bluez
            let address = fixture.address
            let keyboard = fixture.keyboard
            // bluetoothd's disconnect timer, and the gap the rig showed between the two properties (finding 18): a
            // push that waited 3 s for Connected false would give up.
            await bluez.setDisconnectTimer(.seconds(2))
            await bluez.setConnectedLingers(address, .seconds(5))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let sessions = await bluez.gatt.statistics(for: address).notifySessionsStarted
            // Another program (bluetoothctl) disconnects the keyboard; it is connected again once it is down.
            let other = try await fixture.harness.bus.connect()
            defer { Task { await other.close() } }
            let device = DBusProxy(
                connection: other, destination: BlueZ.service, path: try #require(await bluez.path(of: address)),
                interface: BlueZ.deviceInterface)
            let comesBack = Task {
                try await device.call(MemberName("Disconnect"), timeout: .seconds(60))
                await keyboard.linkDropped()
                await keyboard.linkRestored()
                try await bluez.setConnected(address, true)
                await keyboard.unlock()
            }
            #expect(await eventually { await bluez.gatt.isDisconnecting(address) })
            let result = try await keymap.push()
            try await comesBack.value
            #expect(result.written == 1 && result.saved)
            #expect(
                await keyboard.firmware.savedKeymap[0][try fixture.position("CAPS")]
                    == (await fixture.keyPress(usage: 0xE0)))
            #expect(try await keymap.diff().isEmpty)
            // Refused while disconnecting (no session), then the one that wrote.
            #expect(await bluez.gatt.statistics(for: address).notifySessionsStarted == sessions + 1)
        }
    }

    @Test("a link that drops as the push connects and stays down: NotConnected once the wait is over, nothing written")
    func linkDropsBeforeWritingAndStaysDown() async throws {
        try await StudioPushFixture.run(options: { $0.linkReturnTimeout = .seconds(1) }) { fixture, keymap in
            let bluez = fixture.harness.bluez
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let before = try await keymap.exportProfile()
            await bluez.gatt.setFaults(SimulatedGATTFaults(dropLinkAtStartNotify: 1), for: fixture.address)
            await KeymapFixture.expectError(.notConnected, containing: ["ATT error: 0x0e"]) {
                _ = try await keymap.push()
            }
            #expect(await bluez.device(fixture.address)?.connected == false)
            #expect(await fixture.keyboard.firmware.savedKeymap == original)
            #expect(try await keymap.exportProfile() == before)
        }
    }

    @Test("the Driver property says zmk-studio for a keyboard with the Studio service")
    func driverProperty() async throws {
        try await StudioPushFixture.run { fixture, _ in
            let client = try await fixture.harness.client()
            let found = await eventually(timeout: .seconds(30)) {
                (try? await client.keyboards().first { $0.address == fixture.address.description }?.driver)
                    == "zmk-studio"
            }
            #expect(found)
        }
    }
}
