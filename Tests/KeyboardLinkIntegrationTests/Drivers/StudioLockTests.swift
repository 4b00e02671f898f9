import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `Keyboard.StudioLock` follows what the ZMK Studio link learns, and `kblink info` and `kblink doctor` show it:
/// a simulated Studio keyboard, locked, then unlocked, then disconnected.
@Suite("ZMK Studio lock state", .serialized)
struct StudioLockTests {
    /// The keyboard's `StudioLock`, as a client reads it.
    static func studioLock(_ fixture: StudioPushFixture) async throws -> StudioLock {
        let client = try await fixture.harness.client()
        defer { Task { await client.close() } }
        let keyboard = try await client.keyboard(matching: fixture.address.description)
        return try await client.keyboardProxy(keyboard).property(KBlinkContract.Keyboard.studioLockProperty)
    }

    /// `kblink doctor`'s studio-lock row for the keyboard: its status and what it found.
    static func doctorRow(_ fixture: StudioPushFixture, root: TemporaryDirectory) async throws -> (String, String) {
        let result = try await fixture.harness.kblink(
            ["doctor", "--json", "--root", root.path, fixture.address.description])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [[String: Any]])
        let row = try #require(checks.first { $0["id"] as? String == "keyboard.studio-lock" })
        return (row["status"] as? String ?? "", row["found"] as? String ?? "")
    }

    @Test("locked, then unlocked, then disconnected: the property, kblink info and kblink doctor follow")
    func followsTheKeyboard() async throws {
        let root = try TemporaryDirectory()
        try await StudioPushFixture.run(unlocked: false) { fixture, _ in
            // The first contact read meets the lock (UNLOCK_REQUIRED).
            await fixture.harness.service.readKeymapBases()
            #expect(try await eventually { try await Self.studioLock(fixture) == .locked })
            let info = try await fixture.harness.kblink(["info", fixture.address.description])
            #expect(info.standardOutput.contains("locked"), "\(info.standardOutput)")
            #expect(info.standardOutput.contains("&studio_unlock"), "\(info.standardOutput)")
            let json = try await fixture.harness.kblink(["info", "--json", fixture.address.description])
            #expect(json.standardOutput.contains("\"studioLock\":\"locked\""), "\(json.standardOutput)")
            var (status, found) = try await Self.doctorRow(fixture, root: root)
            #expect(status == "WARN")
            #expect(found.contains("locked"))
            let text = try await fixture.harness.kblink(["doctor", "--root", root.path, fixture.address.description])
            #expect(text.standardOutput.contains("&studio_unlock"), "\(text.standardOutput)")

            // The user presses the unlock key; the next read goes through (ZMK answers keymap calls only unlocked).
            await fixture.keyboard.unlock()
            await fixture.harness.service.readKeymapBases()
            #expect(try await eventually { try await Self.studioLock(fixture) == .unlocked })
            (status, found) = try await Self.doctorRow(fixture, root: root)
            #expect(status == "OK")
            #expect(found == "unlocked for ZMK Studio")

            // Disconnected: ZMK locks again, and kblinkd does not know until it reconnects.
            await fixture.keyboard.linkDropped()
            try await fixture.harness.bluez.setConnected(fixture.address, false)
            #expect(try await eventually { try await Self.studioLock(fixture) == .unknown })
            (status, found) = try await Self.doctorRow(fixture, root: root)
            #expect(status == "NOTE")
            #expect(found.contains("unknown"))
            let unknown = try await fixture.harness.kblink(["info", "--json", fixture.address.description])
            #expect(unknown.standardOutput.contains("\"studioLock\":\"unknown\""), "\(unknown.standardOutput)")
        }
    }

    @Test("the Studio link's lock_state_changed notification reaches the property while a pull waits for the unlock")
    func notificationDuringPull() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, _ in
            async let pull = fixture.harness.kblink(["keymap", "pull", fixture.address.description])
            #expect(try await eventually { try await Self.studioLock(fixture) == .locked })
            await fixture.keyboard.unlock()
            #expect(try await eventually { try await Self.studioLock(fixture) == .unlocked })
            let result = try await pull
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    @Test("a keyboard that does not speak ZMK Studio has an empty StudioLock, and kblink info shows no Studio row")
    func notStudio() async throws {
        try await withDaemon(devices: [.vgn98Pro]) { harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let keyboard = try await client.keyboard(matching: SimulatedDevice.vgn98Pro.address.description)
            #expect(
                try await client.keyboardProxy(keyboard).property(KBlinkContract.Keyboard.studioLockProperty)
                    == .notStudio)
            let json = try await harness.kblink(["info", "--json", keyboard.address])
            #expect(json.standardOutput.contains("\"studioLock\":null"), "\(json.standardOutput)")
        }
    }
}
