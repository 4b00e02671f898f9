import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// The grace period on the bus: `HardwareKeyboardAttached` stays true for it after the last keyboard left, a
/// keyboard back within it never shows as gone, `HardwareKeyboardReasons` says what is held, and the layout core
/// (`ResolveInsets`) follows the same held state.
@Suite("Presence grace period on the bus", .serialized)
struct PresenceGraceTests {
    static let aula = SimulatedDevice.aulaF87.address

    static func disconnectedAula() -> SimulatedDevice {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        return aula
    }

    /// The shortcut bar of the layout core's scenario 4: 55 pt without a hardware keyboard, 0 with one.
    static func barInset(_ client: KBlinkClient) async throws -> Double? {
        let answer = try await client.manager.call(
            MemberName("ResolveInsets"),
            [
                ResolveInsetsTests.request([
                    "screen": .array(.double, [.double(1024), .double(1366)]), "event": .string("show"),
                    "keyboard": ResolveInsetsTests.rect(0, 1311, 1024, 355),
                ])
            ], returning: [String: DBusValue].self)
        guard case .double(let value)? = answer["inset"]?.unwrapped else { return nil }
        return value
    }

    static func reasons(_ client: KBlinkClient) async throws -> [HardwareKeyboardReasonEntry] {
        let value = try await client.manager.property(MemberName("HardwareKeyboardReasons"))
        return try [HardwareKeyboardReasonEntry](dbusValue: value)
    }

    @Test("detach is held for the grace period, with the reason, and ResolveInsets follows it")
    func detachIsHeld() async throws {
        // The held state can be seen only while the grace period runs. On a machine so loaded that the checks take
        // longer than the period, what they saw proves nothing either way: the keyboard connects and leaves again,
        // up to five times. Only a hold not seen by checks that all ran within the period fails.
        let gracePeriod = Duration.seconds(30)
        try await withDaemon(
            devices: [Self.disconnectedAula()], options: { $0.presence = PresenceSettings(gracePeriod: gracePeriod) }
        ) { harness in
            let client = try await harness.client()
            #expect(try await Self.barInset(client) == 55)
            var heldSeen = false
            for attempt in 1...5 {
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
                #expect(
                    try await Self.reasons(client).map(\.reason) == ["Bluetooth keyboard that BlueZ reports connected"])
                #expect(try await Self.barInset(client) == 0)

                try await harness.bluez.setConnected(Self.aula, false)
                let left = ContinuousClock.now
                // The daemon saw the disconnection once the keyboard's own object says so...
                #expect(
                    try await eventually {
                        try await client.keyboards().first { $0.address == Self.aula.description }?.connected == false
                    })
                // ...and still counts it, saying why (published a moment after the keyboard's object changed); the
                // layout core follows.
                // (Waited for until 5 s before the period ends, so that a reason that never comes is seen in time.)
                let waitForReason = gracePeriod - (ContinuousClock.now - left) - .seconds(5)
                let reasonHeld = try await eventually(timeout: max(.zero, waitForReason)) {
                    try await Self.reasons(client).first?.reason.hasPrefix(
                        "gone; still counted for the 30 s grace period") == true
                }
                let reasons = try await Self.reasons(client)
                let attached = try await client.status().hardwareKeyboardAttached
                let inset = try await Self.barInset(client)
                guard ContinuousClock.now - left < gracePeriod else {
                    // Too slow to tell: wait for the end of this hold, then try again.
                    #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })
                    continue
                }
                #expect(reasonHeld, "attempt \(attempt): \(reasons)")
                #expect(reasons.count == 1 && attached && inset == 0, "attempt \(attempt): \(reasons), \(inset ?? -1)")
                heldSeen = true
                break
            }
            #expect(heldSeen, "five times the checks took longer than the 30 s grace period")

            #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })
            #expect(try await Self.reasons(client).isEmpty)
            #expect(try await Self.barInset(client) == 55)
            await client.close()
        }
    }

    @Test("a keyboard that drops and comes back within the grace period never shows as gone")
    func flickerIsHidden() async throws {
        // A grace period longer than any wait below: "within the grace period" holds however slow the machine.
        try await withDaemon(options: { $0.presence = PresenceSettings(gracePeriod: .seconds(300)) }) { harness in
            let client = try await harness.client()
            #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
            let seen = Mutex<[Bool]>([])
            let changes = try await client.connection.subscribe(
                to: MatchRule(
                    sender: KBlink.service, path: KBlink.managerPath, interface: .properties,
                    member: MemberName("PropertiesChanged"), arg0: KBlink.managerInterface.rawValue))
            let watcher = Task {
                for await message in changes {
                    if let flag = message.body[1].stringDictionary?["HardwareKeyboardAttached"]?.boolValue {
                        seen.withLock { $0.append(flag) }
                    }
                }
            }
            for _ in 0..<3 {
                try await harness.bluez.setConnected(Self.aula, false)
                #expect(
                    try await eventually {
                        try await client.keyboards().first { $0.address == Self.aula.description }?.connected == false
                    })
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(
                    try await eventually {
                        try await client.keyboards().first { $0.address == Self.aula.description }?.connected == true
                    })
            }
            // A round trip to the daemon after the last change: its PropertiesChanged, if any, came before.
            #expect(try await client.status().hardwareKeyboardAttached)
            watcher.cancel()
            #expect(!seen.withLock { $0 }.contains(false))
            await client.close()
        }
    }
}

/// `kblink insets --watch` follows the same held state as `ResolveInsets`.
@Suite("kblink insets --watch and the grace period", .serialized)
struct InsetsWatchGraceTests {
    @Test("the shortcut bar's inset is 0 while attached and through the grace period, 55 once the keyboard is gone")
    func watchFollowsTheHeldState() async throws {
        try await withDaemon(
            devices: [PresenceGraceTests.disconnectedAula()],
            options: { $0.presence = PresenceSettings(gracePeriod: .seconds(2)) }
        ) { harness in
            let watch = try ChildProcess(
                DaemonHarness.binary("kblink"),
                [
                    "insets", "--screen", "1024x1366", "--keyboard", "0,1311,1024,355", "--event", "show", "--watch",
                    "--json", "--bus", harness.bus.address,
                ])
            defer { watch.signal(SIGKILL) }
            @Sendable func insets() -> [Double] {
                watch.standardOutput.split(separator: "\n").compactMap { line in
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                        let answer = object["answer"] as? [String: Any]
                    else { return nil }
                    return (answer["inset"] as? NSNumber)?.doubleValue
                }
            }
            // kblink subscribes to the changes before its first answer, so once that answer is out no change is
            // missed.
            #expect(await eventually { insets() == [55] })
            try await harness.bluez.setConnected(PresenceGraceTests.aula, true)
            #expect(await eventually { insets() == [55, 0] })
            try await harness.bluez.setConnected(PresenceGraceTests.aula, false)
            #expect(await eventually { insets() == [55, 0, 55] })
        }
    }
}
