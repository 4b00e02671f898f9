import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblinkd's `org.bluez.Agent1`: registration with BlueZ, who may call it, and about which devices.
@Suite("kblinkd's pairing agent", .serialized)
struct PairingAgentTests {
    @Test("registered by the daemon's connection with KeyboardDisplay, not as the default agent")
    func registeredNotDefault() async throws {
        try await withDaemon(devices: PairingFixtures.all) { harness in
            let daemon = harness.serviceConnection.uniqueName
            #expect(await eventually { await harness.bluez.registeredAgents[daemon] != nil })
            #expect(await harness.bluez.defaultAgentOwner == nil)
            #expect(await harness.service.pairing.isAgentRegistered)
        }
    }

    @Test("the default agent when the configuration says so")
    func defaultWhenConfigured() async throws {
        try await withDaemon(devices: PairingFixtures.all, options: { $0.pairing.requestDefaultAgent = true }) {
            harness in
            let daemon = harness.serviceConnection.uniqueName
            #expect(await eventually { await harness.bluez.defaultAgentOwner == daemon })
        }
    }

    @Test(
        "requests about a device kblinkd is not pairing are rejected",
        arguments: [
            "RequestPinCode", "RequestConfirmation", "AuthorizeService", "RequestPasskey", "RequestAuthorization",
        ])
    func rejectsOthers(_ member: String) async throws {
        try await withDaemon(devices: PairingFixtures.all) { harness in
            let device = DBusValue.objectPath(
                try #require(await harness.bluez.path(of: PairingFixtures.legacyPin.address)))
            let arguments: [DBusValue] =
                switch member {
                case "RequestConfirmation": [device, .uint32(123_456)]
                case "AuthorizeService": [device, .string("00001124-0000-1000-8000-00805f9b34fb")]
                default: [device]
                }
            let daemon = harness.serviceConnection.uniqueName
            #expect(await eventually { await harness.bluez.registeredAgents[daemon] != nil })
            await #expect {
                try await harness.bluez.callAgent(of: daemon, try MemberName(member), arguments)
            } throws: { error in
                (error as? DBusError)?.name == BlueZ.Error.rejected
            }
        }
    }

    @Test("a caller that is not BlueZ is rejected, even about a device being paired")
    func onlyBlueZMayCall() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(slow)
            let client = try await harness.client()
            let device = PairingFixtures.slowPasskey
            let stream = try await client.pairing(
                try await client.pairingTarget(device.address.description), timeout: .seconds(30))
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            let intruder = try await harness.bus.connect()
            let devicePath = try #require(await harness.bluez.path(of: device.address))
            await #expect {
                try await intruder.call(
                    destination: harness.serviceConnection.uniqueName, path: ObjectPath("/org/kblink/agent"),
                    interface: BlueZ.agentInterface, member: MemberName("RequestPinCode"), [.objectPath(devicePath)]
                )
            } throws: { error in
                let error = error as? DBusError
                return error?.name == BlueZ.Error.rejected && error?.message.contains("only BlueZ") == true
            }
            try await client.cancelPairing(device.address.description)
            await intruder.close()
            await client.close()
        }
    }

    @Test("BlueZ restarting mid-pairing: the pairing fails saying so, nothing is kept, the agent is back")
    func blueZRestartsMidPairing() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(slow)
            let daemon = harness.serviceConnection.uniqueName
            let client = try await harness.client()
            let device = PairingFixtures.slowPasskey
            let stream = try await client.pairing(
                try await client.pairingTarget(device.address.description), timeout: .seconds(30))
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            try await harness.bluez.restart()
            var end: PairingResult?
            while let event = await iterator.next() {
                if case .ended(let result) = event { end = result }
            }
            let error = try #require(end?.error)
            #expect(error.code == .failed)
            #expect(error.message.contains("BlueZ stopped"), "\(error.message)")
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)
            #expect(await eventually { await harness.bluez.registeredAgents[daemon] != nil }, "registered again")
            #expect(await eventually { await harness.service.pairing.isAgentRegistered })

            await harness.bluez.setPairingTimings(.fast)
            // The agent is registered again as soon as BlueZ's name is back; kblinkd's model of BlueZ reads the
            // adapter again on its own, a moment later: until then Pair answers that no adapter is present.
            let address = device.address.description
            let again = await eventually(
                "Pair once kblinkd has read BlueZ's adapter again", { try await client.pair(address) },
                satisfies: { _ in true })
            #expect(again == KBlink.keyboardPath(device.address))
            let paired = try #require(await harness.bluez.device(device.address))
            #expect(paired.paired && paired.trusted && paired.connected)
            await client.close()
        }
    }

    @Test("a bond BlueZ kept from a pairing it was killed in is removed once BlueZ is back")
    func interruptedBondIsRemoved() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(slow)
            let client = try await harness.client()
            var device = PairingFixtures.slowPasskey
            let stream = try await client.pairing(
                try await client.pairingTarget(device.address.description), timeout: .seconds(30))
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            await harness.bluez.kill()
            // bluetoothd had stored the bond just before it died.
            device.paired = true
            try await harness.bluez.add(device)
            let address = device.address
            var end: PairingResult?
            while let event = await iterator.next() {
                if case .ended(let result) = event { end = result }
            }
            #expect(end?.error?.message.contains("BlueZ stopped") == true)
            try await harness.bluez.start()
            #expect(await eventually { await harness.bluez.device(address) == nil }, "the half bond is removed")
            #expect(await eventually { await harness.service.pairing.isAgentRegistered })
            await client.close()
        }
    }
}
