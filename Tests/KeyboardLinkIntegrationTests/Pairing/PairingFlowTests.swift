import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The daemon's Pair/CancelPairing through the client library, against the simulated BlueZ.
@Suite("Pairing through the client: prompts, ends and undo", .serialized)
struct PairingFlowTests {
    static func withPairingDaemon<T>(
        timings: SimulatedBlueZ.PairingTimings = .fast, _ body: (DaemonHarness) async throws -> T
    ) async throws -> T {
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(timings)
            return try await body(harness)
        }
    }

    /// The `Pair` call's timeout: it bounds a hang, not how fast a pairing goes. The simulated passkey entry is
    /// slow on a loaded machine (at load 12 one took more than 30 s); a pairing that never ends still fails.
    static let pairDeadline = Duration.seconds(240)

    /// Collects every event of one pairing.
    static func events(_ stream: AsyncStream<PairingEvent>) async -> (
        prompts: [PairingPromptRelay], end: PairingResult?
    ) {
        var prompts: [PairingPromptRelay] = []
        for await event in stream {
            switch event {
            case .prompt(let prompt): prompts.append(prompt)
            case .ended(let result): return (prompts, result)
            }
        }
        return (prompts, nil)
    }

    @Test("a BLE keyboard found by a scan: the passkey, each digit typed, then paired, trusted and connected")
    func blePasskey() async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            let device = PairingFixtures.blePasskey
            let target = try await client.pairingTarget(device.address.description)
            let (prompts, end) = await Self.events(try await client.pairing(target, timeout: Self.pairDeadline))
            #expect(end?.error == nil, "\(String(describing: end?.error))")
            #expect(prompts.map(\.kind) == Array(repeating: .displayPasskey, count: 7))
            #expect(prompts.map(\.code) == Array(repeating: "004821", count: 7))
            #expect(prompts.map(\.entered) == [0, 1, 2, 3, 4, 5, 6])
            let state = try #require(await harness.bluez.device(device.address))
            #expect(state.paired && state.trusted && state.connected)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering }, "the scan was stopped")
            await client.close()
        }
    }
}

extension PairingFlowTests {
    @Test("a legacy keyboard asks for a PIN: six digits shown, answered, HID authorized, then paired")
    func legacyPin() async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            let device = PairingFixtures.legacyPin
            let target = try await client.pairingTarget("apple")
            #expect(target.address == device.address)
            let (prompts, end) = await Self.events(try await client.pairing(target, timeout: Self.pairDeadline))
            #expect(end?.ok == true, "\(String(describing: end?.error))")
            let prompt = try #require(prompts.first)
            #expect(prompts.count == 1)
            #expect(prompt.kind == .displayPinCode)
            #expect(prompt.code.count == 6 && prompt.code.allSatisfy(\.isNumber))
            let calls = await harness.bluez.agentCalls
            let pinCall = try #require(calls.first { $0.member == "RequestPinCode" })
            #expect(pinCall.outcome == "ok")
            #expect(calls.first { $0.member == "AuthorizeService" }?.outcome == "ok")
            let state = try #require(await harness.bluez.device(device.address))
            #expect(state.paired && state.trusted && state.connected)
            await client.close()
        }
    }

    @Test("just works: no prompt, paired, trusted and connected")
    func justWorks() async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            let path = try await client.pair("Plain Board")
            #expect(path == KBlink.keyboardPath(PairingFixtures.justWorks.address))
            let state = try #require(await harness.bluez.device(PairingFixtures.justWorks.address))
            #expect(state.paired && state.trusted && state.connected)
            let keyboard = try await client.keyboard(matching: "Plain Board")
            #expect(keyboard.paired && keyboard.trusted && keyboard.connected, "the exported object is current")
            await client.close()
        }
    }

    @Test(
        "failures end with the right error and leave the keyboard neither paired nor trusted",
        arguments: [
            (PairingFixtures.rejecting, KBlinkError.Code.authenticationFailed, "rejected the passkey", 7),
            (PairingFixtures.silent, .authenticationFailed, "not in pairing mode", 0),
        ])
    func failures(_ device: SimulatedDevice, _ code: KBlinkError.Code, _ advice: String, _ promptCount: Int)
        async throws
    {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            let target = try await client.pairingTarget(device.address.description)
            let (prompts, end) = await Self.events(try await client.pairing(target, timeout: Self.pairDeadline))
            let error = try #require(end?.error)
            #expect(error.code == code)
            #expect(error.message.contains(advice), "\(error.message)")
            #expect(error.message.contains("kblink pair \(device.address)"))
            #expect(prompts.count == promptCount)
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted && !state.connected)
            #expect(await harness.bluez.pairingsInProgress.isEmpty)
            await client.close()
        }
    }

    @Test("CancelPairing from the client ends a running pairing: Canceled, BlueZ and the agent told, nothing kept")
    func cancelFromClient() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await Self.withPairingDaemon(timings: slow) { harness in
            let client = try await harness.client()
            let device = PairingFixtures.slowPasskey
            let target = try await client.pairingTarget(device.address.description)
            let stream = try await client.pairing(target, timeout: Self.pairDeadline)
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first == .prompt(PairingPromptRelay(kind: .displayPasskey, code: "765432", entered: 0)))
            try await client.cancelPairing(device.address.description)
            var end: PairingResult?
            while let event = await iterator.next() {
                if case .ended(let result) = event { end = result }
            }
            #expect(end?.error?.code == .canceled)
            #expect(end?.error?.message.contains("nothing was kept") == true)
            let calls = await harness.bluez.agentCalls
            #expect(calls.last?.member == "Cancel", "the agent hears Cancel() from BlueZ")
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)
            #expect(await harness.bluez.pairingsInProgress.isEmpty)
            await client.close()
        }
    }

    @Test("CancelPairing while looking for an unknown address stops the scan and answers Canceled")
    func cancelDuringDiscovery() async throws {
        try await withDaemon(devices: PairingFixtures.all, options: { $0.discoveryTimeout = .seconds(60) }) {
            harness in
            let client = try await harness.client()
            let target = PairingTarget(address: PairingFixtures.address("00:11:22:33:44:55"), name: "nobody")
            let stream = try await client.pairing(target, timeout: .seconds(90))
            #expect(await eventually { await harness.bluez.adapterList.contains { $0.discovering } })
            try await client.cancelPairing("00:11:22:33:44:55")
            let (_, end) = await Self.events(stream)
            #expect(end?.error?.code == .canceled)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
            await client.close()
        }
    }

    @Test("an address nobody answers for is NotFound after the discovery timeout, with advice")
    func unknownAddress() async throws {
        try await withDaemon(devices: PairingFixtures.all, options: { $0.discoveryTimeout = .seconds(1) }) {
            harness in
            let client = try await harness.client()
            await #expect {
                try await client.pair("00:11:22:33:44:55")
            } throws: { error in
                let error = error as? KBlinkError
                return error?.code == .notFound && error?.message.contains("pairing mode") == true
            }
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
            await client.close()
        }
    }

    @Test(
        "refused up front: an unknown name, a phone, an empty argument",
        arguments: [
            ("Nonexistent Board", KBlinkError.Code.notFound), ("5A:02:0C:00:00:01", .notSupported),
            ("", .invalidArgs),
        ])
    func refusedUpFront(_ device: String, _ expected: KBlinkError.Code) async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            await #expect {
                try await client.pair(device)
            } throws: { error in
                (error as? KBlinkError)?.code == expected
            }
            await client.close()
        }
    }

    @Test("a second Pair for the same keyboard while one runs gets Busy; the first still succeeds")
    func busy() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .milliseconds(500)
        try await Self.withPairingDaemon(timings: slow) { harness in
            let client = try await harness.client()
            let other = try await harness.client()
            let device = PairingFixtures.slowPasskey
            let stream = try await client.pairing(
                try await client.pairingTarget(device.address.description), timeout: .seconds(30))
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            await #expect {
                try await other.pair(device.address.description)
            } throws: { error in
                let error = error as? KBlinkError
                return error?.code == .busy && error?.message.contains("being paired already") == true
            }
            var end: PairingResult?
            while let event = await iterator.next() {
                if case .ended(let result) = event { end = result }
            }
            #expect(end?.ok == true)
            await client.close()
            await other.close()
        }
    }

    @Test("two keyboards pair one after the other without restarting anything")
    func twoInARow() async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            for device in [PairingFixtures.blePasskey, PairingFixtures.legacyPin] {
                let target = try await client.pairingTarget(device.address.description)
                let (prompts, end) = await Self.events(try await client.pairing(target, timeout: Self.pairDeadline))
                #expect(end?.ok == true, "\(device.name): \(String(describing: end?.error))")
                #expect(!prompts.isEmpty)
                let state = try #require(await harness.bluez.device(device.address))
                #expect(state.paired && state.trusted && state.connected)
            }
            await client.close()
        }
    }

    @Test("the program that asked leaving the bus cancels its pairing")
    func callerLeaves() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await Self.withPairingDaemon(timings: slow) { harness in
            let client = try await harness.client()
            let device = PairingFixtures.slowPasskey
            let stream = try await client.pairing(
                try await client.pairingTarget(device.address.description), timeout: .seconds(30))
            var iterator = stream.makeAsyncIterator()
            _ = await iterator.next()
            await client.close()
            #expect(await eventually { await harness.bluez.pairingsInProgress.isEmpty })
            #expect(await eventually { await harness.service.pairing.activePairings.isEmpty })
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)
        }
    }
}

extension PairingFlowTests {
    @Test("a name that is exactly an unpaired keyboard's and the start of another's is asked, by address")
    func unpairedExactNameIsAsked() async throws {
        // The user's keyboard, paired; a device in range (unpaired) took the start of its name.
        var own = PairingFixtures.keyboard("C0:FF:EE:00:00:14", "Plain Board Pro", .justWorks)
        own.paired = true
        own.trusted = true
        let neighbour = PairingFixtures.justWorks
        try await withDaemon(devices: [own, neighbour]) { harness in
            await harness.bluez.setPairingTimings(.fast)
            let client = try await harness.client()
            await KeymapFixture.expectError(
                .invalidArgs, containing: [neighbour.address.description, own.address.description]
            ) {
                _ = try await client.pair("plain board")
            }
            let command = try await harness.kblink(["pair", "Plain Board"])
            #expect(command.status == 2, "\(command.standardError)")
            #expect(command.standardError.contains("give the address"), "\(command.standardError)")
            #expect(command.standardError.contains(neighbour.address.description), "\(command.standardError)")
            #expect(command.standardError.contains(own.address.description), "\(command.standardError)")
            #expect(await harness.bluez.device(neighbour.address)?.paired == false, "nothing was paired")
            // By address, it pairs.
            let paired = try await harness.kblink(["pair", neighbour.address.description])
            #expect(paired.status == 0, "\(paired.standardError)")
            #expect(await harness.bluez.device(neighbour.address)?.paired == true)
            await client.close()
        }
    }
}
