import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// What a stranger sends kblinkd costs it little before it is allowed: oversized calls and signals are refused from
/// their lengths, grants hold for the object polkit was asked about, and a caller's waiting calls and polkit checks are
/// capped. Must run as root (the stranger runs as nobody through setpriv).
@Suite("Bounded before decided: what a stranger sends costs kblinkd little before it is allowed")
struct BoundedBeforeDecidedTests {
    init() throws {
        try #require(getuid() == 0, "the stranger runs as nobody through setpriv, which needs root")
    }

    /// The peak resident memory of a process (`VmHWM`), in KiB.
    static func peakMemory(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test(
        "a 16 MB Properties.Set and a 16 MB NameOwnerChanged sent to kblinkd alone, from nobody: LimitsExceeded, and kblinkd stays up with its peak memory at most 64 MiB higher"
    )
    func oversizedMessages() async throws {
        let bus = try await TestBus()
        let polkit = try await PolkitMock(bus: bus)
        defer { Task { await polkit.stop() } }
        let directory = try TemporaryDirectory()
        try #require(chmod(directory.path, 0o755) == 0)
        let script = directory.path + "/oversized-messages.py"
        let source = try #require(
            Bundle.module.path(forResource: "oversized-messages", ofType: "py", inDirectory: "Fixtures"))
        try FileManager.default.copyItem(atPath: source, toPath: script)
        try #require(chmod(script, 0o644) == 0)

        let daemon = try ChildProcess(
            DaemonHarness.binary("kblinkd"), ["--bus", bus.address, "--state-dir", directory.path])
        defer { daemon.signal(SIGKILL) }
        let observer = try await bus.connect()
        let started = try await eventually { try await observer.nameOwner(of: KBlink.service) != nil }
        try #require(started, "kblinkd did not take org.kblink1: \(daemon.standardError)")
        let before = try Self.peakMemory(of: daemon.process.processIdentifier)

        let result = try await runProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-I", script, bus.address,
                KBlink.service.rawValue,
            ],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        try #require(result.status == 0, "the stranger's script failed: \(result.standardError)")
        let answers = try JSONDecoder().decode([String: String].self, from: Data(result.standardOutput.utf8))
        #expect(answers["set"] == "org.freedesktop.DBus.Error.LimitsExceeded", "\(answers)")
        // kblinkd answered the Ping sent after the signal: it handled the signal and is still serving.
        #expect(answers["ping"] == "reply", "\(answers)")

        let after = try Self.peakMemory(of: daemon.process.processIdentifier)
        #expect(after - before <= 64 << 10, "kblinkd's peak memory grew by \((after - before) >> 10) MiB")
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        #expect(try await client.status().version == KBlink.version)
        await client.close()
        await observer.close()
    }

    @Test("polkit allows pushes to one keyboard only: a push to the other is refused, also right after an allowed push")
    func grantsHoldForTheirObject() async throws {
        try await StudioPushFixture.run(
            otherDevices: [.vgn98Pro], options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }
        ) { fixture, keymap in
            let allowedPath = KBlink.keyboardPath(fixture.address)
            let polkit = try await ObjectPolkitMock(
                bus: fixture.harness.bus, allowing: .writeFirmware, on: allowedPath)
            defer { Task { await polkit.stop() } }
            let other = try #require(
                try await fixture.harness.client().keyboards().first { $0.path != allowedPath },
                "the harness has a second keyboard")
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let push = OutsideCaller.JSONArgument.dictionary([:])
            let calls = [
                OutsideCaller.Call(
                    path: allowedPath.rawValue, interface: KBlink.keymapInterface.rawValue, method: "Push",
                    signature: "(a{sv})", arguments: [push]),
                OutsideCaller.Call(
                    path: other.path.rawValue, interface: KBlink.keymapInterface.rawValue,
                    method: "Push", signature: "(a{sv})", arguments: [push]),
            ]
            // One caller, one right after the other: well within the grant's lifetime (10 s).
            let outcome = try await OutsideCaller().run(calls, on: fixture.harness.bus)
            #expect(outcome.answers.count == 2)
            #expect(outcome.answers.first?.error == nil, "\(outcome.answers)")
            #expect(outcome.answers.last?.error == "org.kblink1.Error.NotAuthorized", "\(outcome.answers)")
            let objects = try await polkit.checkedObjects()
            #expect(objects == [allowedPath.rawValue, other.path.rawValue])
        }
    }

    @Test("Pair's polkit check names the device's address, read from the call's first argument alone")
    func pairNamesTheDevice() async throws {
        try await withDaemon(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) { harness in
            let polkit = try await ObjectPolkitMock(bus: harness.bus, allowing: .pair, on: "/nowhere")
            defer { Task { await polkit.stop() } }
            let address = SimulatedDevice.aulaF87.address
            let pair = OutsideCaller.Call(
                path: KBlink.managerPath.rawValue, interface: KBlink.managerInterface.rawValue, method: "Pair",
                signature: "(s)", arguments: [.string(address.description.lowercased())])
            let outcome = try await OutsideCaller().run([pair], on: harness.bus)
            #expect(outcome.answers.first?.error == "org.kblink1.Error.NotAuthorized", "\(outcome.answers)")
            let details = try await polkit.checkedDetails()
            #expect(details.count == 1)
            #expect(details.first?["address"] == address.description, "\(details)")
            #expect(details.first?["object"] == KBlink.managerPath.rawValue)
        }
    }

    /// A `Manager.SetKeyboardBinding` call from nobody, naming the keyboard `device`.
    static func setKeyboardBinding(_ device: String) -> OutsideCaller.Call {
        OutsideCaller.Call(
            path: KBlink.managerPath.rawValue, interface: KBlink.managerInterface.rawValue,
            method: "SetKeyboardBinding", signature: "(ssuss)",
            arguments: [.string(device), .string(""), .uint(0), .string("CAPS"), .string("KC_LCTL")])
    }

    @Test(
        "SetKeyboardBinding is checked as a call on the keyboard its device names: allowed on one, refused on another")
    func setKeyboardBindingNamesTheKeyboard() async throws {
        try await withDaemon(
            devices: [.aulaF87, .vgn98Pro], options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }
        ) { harness in
            let aula = SimulatedDevice.aulaF87.address
            let vgn = SimulatedDevice.vgn98Pro.address
            let polkit = try await ObjectPolkitMock(
                bus: harness.bus, allowing: .editKeymap, on: KBlink.keyboardPath(aula))
            defer { Task { await polkit.stop() } }
            let outcome = try await OutsideCaller().run(
                [Self.setKeyboardBinding("aula"), Self.setKeyboardBinding("VGN 98")], on: harness.bus)
            #expect(outcome.answers.count == 2)
            #expect(outcome.answers.first?.error == nil, "\(outcome.answers)")
            #expect(outcome.answers.first?.result?.contains("KC_LCTL") == true, "\(outcome.answers)")
            #expect(outcome.answers.last?.error == "org.kblink1.Error.NotAuthorized", "\(outcome.answers)")
            // polkit never hears of the Manager's object: each check names the keyboard and its address.
            let checked = try await polkit.checkedDetails().map { [$0["object"] ?? "", $0["address"] ?? ""] }
            #expect(
                Set(checked) == [
                    [KBlink.keyboardPath(aula).rawValue, aula.description],
                    [KBlink.keyboardPath(vgn).rawValue, vgn.description],
                ], "\(checked)")
            try await KeymapFixture.withKeymap(harness, vgn) { keymap in
                let dirty = try await keymap.state().dirty
                #expect(!dirty, "the refused edit reached the VGN's draft")
            }
            try await KeymapFixture.withKeymap(harness, aula) { keymap in
                let dirty = try await keymap.state().dirty
                #expect(dirty)
            }
        }
    }

    @Test(
        "SetKeyboardBinding by a name that moves to another keyboard while polkit decides is checked again for that one"
    )
    func setKeyboardBindingChecksTheKeyboardItEdits() async throws {
        let policy = AuthorizationPolicy(mode: .polkit, fallbackGroup: "nogroup", timeout: .seconds(120))
        try await withDaemon(devices: [.aulaF87, .vgn98Pro], options: { $0.authorization = policy }) { harness in
            let aula = SimulatedDevice.aulaF87.address
            let vgn = SimulatedDevice.vgn98Pro.address
            let signals = try TemporaryDirectory()
            let asked = signals.path + "/asked"
            let go = signals.path + "/go"
            // polkit allows editing the Aula's keymap only, and holds its first answer until the test says go.
            let polkit = try await ObjectPolkitMock(
                bus: harness.bus, allowing: .editKeymap, on: KBlink.keyboardPath(aula),
                holdingFirstAnswer: (asked: asked, until: go))
            defer { Task { await polkit.stop() } }
            let caller = try OutsideCaller()
            let call = Task { try await caller.run([Self.setKeyboardBinding("Aula F87")], on: harness.bus) }
            let heard = await eventually { FileManager.default.fileExists(atPath: asked) }
            try #require(heard)
            // Meanwhile the name moves, as `bluetoothctl set-alias` moves it: the VGN is now "Aula F87", the Aula
            // something else.
            let client = try await harness.client()
            for (address, alias) in [(aula, "Board A"), (vgn, "Aula F87")] {
                let path = try #require(await harness.bluez.path(of: address))
                try await DBusProxy(
                    connection: client.connection, destination: BlueZ.service, path: path,
                    interface: BlueZ.deviceInterface
                ).setProperty("Alias", to: .string(alias))
            }
            let renamed = await eventually {
                let keyboards = (try? await client.keyboards()) ?? []
                return keyboards.first { $0.address == vgn.description }?.alias == "Aula F87"
                    && keyboards.first { $0.address == aula.description }?.alias == "Board A"
            }
            await client.close()
            try #require(renamed)
            try #require(FileManager.default.createFile(atPath: go, contents: nil))
            let outcome = try await call.value
            #expect(outcome.answers.first?.error == "org.kblink1.Error.NotAuthorized", "\(outcome.answers)")
            #expect(
                try await polkit.checkedObjects() == [
                    KBlink.keyboardPath(aula).rawValue, KBlink.keyboardPath(vgn).rawValue,
                ])
            for address in [aula, vgn] {
                try await KeymapFixture.withKeymap(harness, address) { keymap in
                    let dirty = try await keymap.state().dirty
                    #expect(!dirty, "an edit reached \(address)'s draft")
                }
            }
        }
    }

    @Test("a user's polkit checks waiting at once are capped: the next call is LimitsExceeded, not another wait")
    func pendingChecksAreCapped() async throws {
        let fixture = try await AuthorizationFixture(
            policy: AuthorizationPolicy(mode: .polkit, fallbackGroup: "nogroup", timeout: .seconds(120)))
        defer { Task { await fixture.stop() } }
        try await fixture.mock("SimulateHang", [.boolean(true)])
        let limit = Authorizer.maximumPendingChecksPerUser
        let waiting = Task {
            try await withThrowingTaskGroup(of: AuthorizationFixture.Outcome.self) { group in
                for _ in 0..<limit {
                    group.addTask { try await fixture.call("Check", .pair) }
                }
                var outcomes: [AuthorizationFixture.Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
        }
        let allPending = try await eventually { try await fixture.polkitChecks().count == limit }
        try #require(allPending, "the \(limit) checks did not all reach polkit")
        let refused = try await fixture.call("Check", .pair)
        #expect(refused.error == "org.freedesktop.DBus.Error.LimitsExceeded", "\(refused.answers)")
        #expect(try await fixture.polkitChecks().count == limit, "the refused call reached polkit")
        // Once polkit answers, the user may ask again.
        try await fixture.mock("SimulateHang", [.boolean(false)])
        try await fixture.mock("ReleaseHangingCalls")
        let released = try await waiting.value
        #expect(released.count == limit)
        #expect(released.allSatisfy { $0.error == "org.kblink1.Error.NotAuthorized" }, "\(released.map(\.answers))")
        let again = try await fixture.call("Check", .pair)
        #expect(again.error == "org.kblink1.Error.NotAuthorized", "\(again.answers)")
    }
}

/// A generic python-dbusmock object standing in for polkit, whose `CheckAuthorization` says yes to one action on one
/// object (the `object` detail kblinkd passes) and no to everything else, and records the objects it was asked about.
final class ObjectPolkitMock: Sendable {
    let process: ChildProcess
    let control: BusConnection
    static let name: BusName = "org.freedesktop.PolicyKit1"
    static let path: ObjectPath = "/org/freedesktop/PolicyKit1/Authority"

    /// - Parameter holdingFirstAnswer: when given, the first check creates the file `asked` and then waits (up to 2
    ///   minutes, holding the mock) until the file `until` exists before it answers; later checks answer at once.
    init(
        bus: TestBus, allowing action: PolkitAction, on object: ObjectPath,
        holdingFirstAnswer hold: (asked: String, until: String)? = nil
    ) async throws {
        process = try ChildProcess(
            "/usr/bin/python3",
            [
                "-m", "dbusmock", "--system", Self.name.rawValue, Self.path.rawValue,
                "org.freedesktop.PolicyKit1.Authority",
            ],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        control = try await bus.connect()
        let control = control
        let started = try await eventually { try await control.nameOwner(of: Self.name) != nil }
        try #require(started, "python-dbusmock did not start: \(process.standardError)")
        var decision =
            "ret = (args[1] == '\(action.id)' and args[2].get('object') == '\(object.rawValue)', False, {})"
        if let hold {
            decision =
                "import os, time\n"
                + "if not os.path.exists('\(hold.asked)'):\n"
                + "    open('\(hold.asked)', 'w').close()\n"
                + "    end = time.monotonic() + 120\n"
                + "    while not os.path.exists('\(hold.until)') and time.monotonic() < end:\n"
                + "        time.sleep(0.01)\n"
                + decision
        }
        try await mock(
            "AddMethod",
            [
                .string("org.freedesktop.PolicyKit1.Authority"), .string("CheckAuthorization"),
                .string("(sa{sv})sa{ss}us"), .string("(bba{ss})"), .string(decision),
            ])
    }

    /// The `object` detail of every `CheckAuthorization` asked, in order.
    func checkedObjects() async throws -> [String] {
        try await checkedDetails().compactMap { $0["object"] }
    }

    /// The details of every `CheckAuthorization` asked, in order.
    func checkedDetails() async throws -> [[String: String]] {
        let reply = try await mock("GetMethodCalls", [.string("CheckAuthorization")])
        return (reply.body.first?.arrayValue ?? []).compactMap { call in
            guard case .structure(let fields) = call, fields.count == 2, let arguments = fields[1].arrayValue,
                arguments.count == 5, case .dictionary(_, _, let details) = arguments[2].unwrapped
            else { return nil }
            var result: [String: String] = [:]
            for entry in details {
                if let key = entry.key.stringValue, let value = entry.value.unwrapped.stringValue {
                    result[key] = value
                }
            }
            return result
        }
    }

    @discardableResult
    private func mock(_ member: String, _ arguments: [DBusValue]) async throws -> Message {
        try await control.call(
            destination: Self.name, path: Self.path, interface: InterfaceName("org.freedesktop.DBus.Mock"),
            member: MemberName(member), arguments)
    }

    func stop() async {
        await control.close()
        process.signal(SIGKILL)
    }
}
