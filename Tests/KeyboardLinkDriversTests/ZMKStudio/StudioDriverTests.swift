import KeyboardLinkKeymap
import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

/// Carries the driver's frames straight to a simulated firmware and its answers back, without D-Bus.
private actor StudioLoopback {
    var firmware: SimulatedStudioFirmware
    private weak var link: StudioDriverLink?

    init(_ firmware: SimulatedStudioFirmware) {
        self.firmware = firmware
    }

    func connect(_ link: StudioDriverLink) {
        self.link = link
    }

    /// Whether the next `UNLOCK_REQUIRED` answer is followed, in the same chunk, by the keyboard being unlocked.
    var unlocksAfterNextRefusal = false

    func deliver(_ frame: [UInt8]) async {
        guard unlocksAfterNextRefusal else {
            await link?.receive(firmware.receive(bytes: frame))
            return
        }
        var decoder = StudioFrameDecoder()
        decoder.append(frame)
        var answer: [UInt8] = []
        while let payload = try? decoder.nextPayload() {
            for response in firmware.handle(requestPayload: payload) {
                answer += StudioFrameCodec.encode(response.serializedBytes())
                if case .requestResponse(let reply) = response, reply.payload == .meta(.simpleError(.unlockRequired)) {
                    unlocksAfterNextRefusal = false
                    for unlocked in firmware.unlock() { answer += StudioFrameCodec.encode(unlocked.serializedBytes()) }
                }
            }
        }
        await link?.receive(answer)
    }

    func unlockAfterNextRefusal() {
        unlocksAfterNextRefusal = true
    }

    func unlock() async {
        var bytes: [UInt8] = []
        for response in firmware.unlock() { bytes += StudioFrameCodec.encode(response.serializedBytes()) }
        await link?.receive(bytes)
    }

    /// A driver on a fresh link to this firmware.
    static func driver(_ firmware: SimulatedStudioFirmware) async -> (StudioDriver, StudioLoopback) {
        let loopback = StudioLoopback(firmware)
        let link = StudioDriverLink(timeout: .seconds(30)) { frame in await loopback.deliver(frame) }
        await loopback.connect(link)
        return (StudioDriver(link: link), loopback)
    }
}

@Suite("ZMK Studio driver against a simulated firmware")
struct StudioDriverTests {
    static func layout() throws -> PhysicalLayout { try PhysicalLayout.builtIn("aula-f87") }

    @Test("a request waits while the answer is still arriving, longer than the timeout in all; silence fails it")
    func timeoutCountsSilence() async throws {
        let layout = try Self.layout()
        var firmware = SimulatedStudioKeyboard.firmware(matching: layout)
        // The answer to the first request (get_device_info), held back and then fed in small pieces.
        var probeClient = StudioRPCClientCore()
        let (_, probe) = probeClient.makeRequest(.core(.getDeviceInfo))
        let answer = firmware.receive(bytes: probe)
        try #require(answer.count >= 20)
        let link = StudioDriverLink(timeout: .seconds(1)) { _ in }
        let pieces = stride(from: 0, to: answer.count, by: max(1, answer.count / 20)).map {
            Array(answer[$0..<min(answer.count, $0 + max(1, answer.count / 20))])
        }
        let dribble = Task {
            // About 2 s in all, 100 ms between pieces: never a second of silence.
            for piece in pieces {
                try await Task.sleep(for: .milliseconds(100))
                await link.receive(piece)
            }
        }
        let began = ContinuousClock.now
        _ = try await link.call(.core(.getDeviceInfo))
        #expect(ContinuousClock.now - began > .seconds(1), "the answer came faster than the timeout; nothing tested")
        try await dribble.value
        // Nothing at all: the request fails once a second passed in silence.
        await #expect(throws: DriverError.self) { _ = try await link.call(.core(.getDeviceInfo)) }
    }

    @Test("a locked keyboard answers .locked; after lock_state_changed(unlocked) the keymap reads as the owner's")
    func lockedThenUnlocked() async throws {
        let layout = try Self.layout()
        let (driver, loopback) = await StudioLoopback.driver(SimulatedStudioKeyboard.firmware(matching: layout))
        let identity = try await driver.identify()
        #expect(identity.name == "AULA F87")
        #expect(!identity.capabilities.runtimeMacros && identity.capabilities.stagesChanges)
        await #expect(throws: DriverError.self) { try await driver.readKeymap(layout: layout) }
        #expect(await driver.waitUntilUnlocked(timeout: .zero) == false)
        await loopback.unlock()
        #expect(await driver.waitUntilUnlocked(timeout: .seconds(30)))
        let keymap = try await driver.readKeymap(layout: layout)
        #expect(keymap.layers.count == 4)
        #expect(keymap.keymap() == SimulatedOwnerKeymap.keymap(for: layout, layerCount: 4))
        #expect(keymap.keymap() != Keymap(defaultsFor: layout, layerCount: 4))
    }

    @Test("an unlock right behind an UNLOCK_REQUIRED answer is kept: the keyboard reads as unlocked, no wait")
    func unlockRightBehindRefusal() async throws {
        let layout = try Self.layout()
        let (driver, loopback) = await StudioLoopback.driver(SimulatedStudioKeyboard.firmware(matching: layout))
        _ = try await driver.identify()
        await loopback.unlockAfterNextRefusal()
        await #expect(throws: DriverError.self) { try await driver.readKeymap(layout: layout) }
        // The refusal and the unlock arrived in that order; the unlock is the keyboard's state now.
        #expect(await driver.waitUntilUnlocked(timeout: .zero))
        #expect(try await driver.readKeymap(layout: layout).layers.count == 4)
    }

    @Test("firmware macro behaviours are bound by name; another macro is NotSupported and named")
    func macros() async throws {
        let layout = try Self.layout()
        let firmware = SimulatedStudioKeyboard.firmware(matching: layout, macroBehaviorNames: ["copy_paste"])
        let (driver, loopback) = await StudioLoopback.driver(firmware)
        await loopback.unlock()
        try await driver.check(.macro(try MacroName("copy_paste")))
        let missing = try MacroName("signature")
        do throws(DriverError) {
            try await driver.check(.macro(missing))
            Issue.record("binding a macro the firmware lacks should fail")
        } catch {
            #expect(error.message.contains("signature"))
            guard case .notSupported = error else {
                Issue.record("expected notSupported, got \(error)")
                return
            }
        }
        var desired = SimulatedOwnerKeymap.keymap(for: layout, layerCount: 4)
        let name = try MacroName("copy_paste")
        desired.macros[name] = try Macro(steps: [.text("x")])
        desired.setAction(.macro(name), layer: 1, key: try KeyName("F1"))
        let outcome = try await DriverPush(driver: driver, layout: layout).run(
            desired: desired, dryRun: false, verify: true)
        #expect(outcome.writes.count == 1 && outcome.saved)
        let saved = await loopback.firmware
        let position = try #require(layout.keys.firstIndex { $0.name.rawValue == "F1" })
        let macroID = try #require(saved.behaviorID(named: "copy_paste"))
        #expect(saved.savedKeymap[1][position] == StudioBehaviorBinding(behaviorID: Int32(macroID)))
    }

    @Test("an invalid write part-way is discarded: nothing staged, nothing saved")
    func discardOnFailure() async throws {
        let layout = try Self.layout()
        let firmware = SimulatedStudioKeyboard.firmware(matching: layout, faults: [.failSetLayerBinding(call: 3)])
        let (driver, loopback) = await StudioLoopback.driver(firmware)
        await loopback.unlock()
        var desired = Keymap(defaultsFor: layout, layerCount: 4)
        for key in ["F1", "F2", "F3", "F4"] { desired.setAction(.none, layer: 0, key: try KeyName(key)) }
        do {
            _ = try await DriverPush(driver: driver, layout: layout).run(desired: desired, dryRun: false, verify: true)
            Issue.record("the push should have failed")
        } catch {
            #expect(error.written == 2 && error.rolledBack)
        }
        let after = await loopback.firmware
        #expect(after.activeKeymap == after.savedKeymap)
        #expect(after.savedKeymap == firmware.savedKeymap)
        #expect(!after.hasUnsavedChanges)
    }
}
