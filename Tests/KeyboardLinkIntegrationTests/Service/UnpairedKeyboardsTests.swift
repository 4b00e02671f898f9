import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 27 item 7: a device in radio range can claim to be a keyboard under as many addresses as it likes. kblinkd
/// exports only the unpaired keyboards seen last, up to a limit, and opens a keymap session only for paired ones.
@Suite("Unpaired keyboards in range are capped and have no keymap")
struct UnpairedKeyboardsTests {
    /// An unpaired BLE keyboard as a scan finds it, `C0:FF:EE:00:01:0N`.
    static func stranger(_ index: Int) -> SimulatedDevice {
        PairingFixtures.keyboard("C0:FF:EE:00:01:0\(index)", "Stranger \(index)", .justWorks)
    }

    @Test("Past the limit the unpaired keyboards seen first are left out, paired ones stay, and none has a Keymap")
    func cappedWithoutKeymap() async throws {
        try await withDaemon(devices: [.aulaF87], options: { $0.unpairedKeyboardLimit = 3 }) { harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let connection = try await harness.bus.connect()
            defer { Task { await connection.close() } }
            for index in 1...5 {
                try await harness.bluez.add(Self.stranger(index))
                // Seen before the next one arrives, so that "first seen" is the order added.
                let address = Self.stranger(index).address.description
                #expect(try await eventually { try await client.keyboards().contains { $0.address == address } })
            }
            let expected = Set(([SimulatedDevice.aulaF87] + (3...5).map(Self.stranger)).map(\.address.description))
            let listed = try await eventually { Set(try await client.keyboards().map(\.address)) == expected }
            let seen = try await client.keyboards().map(\.address)
            #expect(listed, "\(seen)")

            try await harness.waitForInterface(
                KBlink.keymapInterface, at: KBlink.keyboardPath(SimulatedDevice.aulaF87.address))
            let interfaces = try await exportedInterfaces(connection)
            for index in 3...5 {
                let path = KBlink.keyboardPath(Self.stranger(index).address)
                #expect(interfaces[path]?.contains(KBlink.keyboardInterface.rawValue) == true)
                #expect(interfaces[path]?.contains(KBlink.keymapInterface.rawValue) == false, "\(path)")
            }
            #expect(interfaces[KBlink.keyboardPath(Self.stranger(1).address)] == nil)

            // One of them leaves: the limit has room again, and the one left out last comes back.
            await harness.bluez.remove(Self.stranger(5).address)
            let after = Set(([SimulatedDevice.aulaF87] + (2...4).map(Self.stranger)).map(\.address.description))
            #expect(try await eventually { Set(try await client.keyboards().map(\.address)) == after })
        }
    }

    @Test("An unpaired keyboard gets its Keymap once it is paired; before, kblink keymap says to pair it")
    func keymapAfterPairing() async throws {
        try await withDaemon(devices: [PairingFixtures.justWorks]) { harness in
            await harness.bluez.setPairingTimings(.fast)
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let connection = try await harness.bus.connect()
            defer { Task { await connection.close() } }
            let path = KBlink.keyboardPath(PairingFixtures.justWorks.address)
            #expect(try await eventually { try await exportedInterfaces(connection)[path] != nil })
            #expect(try await exportedInterfaces(connection)[path]?.contains(KBlink.keymapInterface.rawValue) == false)
            let address = PairingFixtures.justWorks.address.description
            let unpaired = try await KeymapCommandRunner.run(harness, ["keymap", "show", address])
            #expect(unpaired.status != 0)
            #expect(
                unpaired.standardError.contains("it is not paired; pair it first with 'kblink pair \(address)'"),
                "\(unpaired.standardError)")
            _ = try await client.pair(address)
            try await harness.waitForInterface(KBlink.keymapInterface, at: path)
        }
    }
}
