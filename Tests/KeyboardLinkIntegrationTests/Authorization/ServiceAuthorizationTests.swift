import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// kblinkd's service with polkit deciding (python-dbusmock's `polkitd`), called by a stranger on the machine
/// (`nobody`) and by root: who may write firmware, who may read macro text, and what a bystander sees.
/// Must run as root (the stranger runs through setpriv).
@Suite("kblinkd asks polkit before it acts, and keeps secrets from strangers")
struct ServiceAuthorizationTests {
    static let notAuthorized = "org.kblink1.Error.NotAuthorized"
    static let secret = "hunter2-correct-horse"

    init() throws {
        try #require(getuid() == 0, "the stranger runs as nobody through setpriv, which needs root")
    }

    /// The keymap object of the fixture's keyboard.
    static func keymapCall(
        _ fixture: StudioPushFixture, _ method: String, signature: String = "",
        _ arguments: [OutsideCaller.JSONArgument] = [], delay: Double = 0
    ) -> OutsideCaller.Call {
        OutsideCaller.Call(
            path: KBlink.keyboardPath(fixture.address).rawValue, interface: KBlink.keymapInterface.rawValue,
            method: method, signature: signature, arguments: arguments, delay: delay)
    }

    @Test("Push: polkit's no is NotAuthorized and writes nothing; its yes pushes, with an audit line")
    func pushNeedsWriteFirmware() async throws {
        let log = DaemonHarness.Log()
        try await StudioPushFixture.run(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }, log: log) {
            fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            let caller = try OutsideCaller()
            let original = await fixture.keyboard.firmware.savedKeymap
            // Root stages the change: root needs no polkit.
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")

            let push = Self.keymapCall(fixture, "Push", signature: "(a{sv})", [.dictionary([:])])
            let refused = try await caller.run([push], on: fixture.harness.bus)
            #expect(refused.answers.first?.error == Self.notAuthorized)
            #expect(refused.answers.first?.message?.contains("org.kblink1.write-firmware") == true)
            #expect(await fixture.keyboard.firmware.savedKeymap == original, "a refused push wrote to the keyboard")
            #expect(try await keymap.state().dirty, "a refused push changed the draft")

            try await polkit.allow([.writeFirmware])
            let allowed = try await caller.run([push], on: fixture.harness.bus)
            #expect(allowed.answers.first?.error == nil, "\(allowed.answers)")
            let caps = try fixture.position("CAPS")
            #expect(
                StudioPushFixture.differences(original, await fixture.keyboard.firmware.savedKeymap) == [[0, caps]])
            let audits = log.entries.filter { $0.1.hasPrefix("audit: org.kblink1.write-firmware Push on ") }
            #expect(audits.count == 1)
            #expect(audits.first?.0 == .notice)
            #expect(audits.first?.1.contains("by uid 65534 pid ") == true)
            #expect(audits.first?.1.contains("(python3)") == true)
            #expect(audits.first?.1.hasSuffix("allowed by polkit") == true)
        }
    }

    @Test("a hanging polkit fails its Push after the timeout while kblinkd answers others meanwhile")
    func hangingPolkit() async throws {
        try await StudioPushFixture.run(options: {
            $0.authorization = .polkit(fallbackGroup: "nogroup")
            $0.authorization.timeout = .seconds(20)
        }) { fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            try await polkit.allow([.editKeymap])
            try await polkit.hang([.writeFirmware])
            let caller = try OutsideCaller()
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let push = Self.keymapCall(fixture, "Push", signature: "(a{sv})", [.dictionary([:])])
            let clock = ContinuousClock()
            let started = clock.now
            let pushEnded = Mutex(false)
            let hanging = Task {
                defer { pushEnded.withLock { $0 = true } }
                return try await caller.run([push], on: fixture.harness.bus)
            }
            #expect(try await eventually { try await polkit.hasHangingChecks() })
            // While polkit sits on that check, kblinkd answers: a read, and another caller's allowed edit (both before
            // the Push ends; measuring the read against 2 s failed on a loaded machine).
            let answered = try await keymap.state()
            #expect(answered.dirty)
            let edit = try await OutsideCaller().run(
                [
                    Self.keymapCall(
                        fixture, "SetBinding", signature: "(suss)",
                        [.string(""), .uint(0), .string("A"), .string("KC_B")])
                ],
                on: fixture.harness.bus)
            #expect(edit.answers.first?.error == nil, "\(edit.answers)")
            #expect(!pushEnded.withLock { $0 }, "the read and the edit were answered while the Push waited for polkit")
            let outcome = try await hanging.value
            #expect(outcome.answers.first?.error == Self.notAuthorized)
            #expect(outcome.answers.first?.message?.contains("polkit did not answer") == true)
            #expect(clock.now - started >= .seconds(20))
            #expect(await fixture.keyboard.firmware.savedKeymap == original)
        }
    }

    @Test("a stranger never gets macro text: not by Get, GetAll, GetManagedObjects, signals, GetMacros or export")
    func macroTextIsWithheld() async throws {
        try await StudioPushFixture.run(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) {
            fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            try await polkit.allow([.editKeymap, .pair, .writeFirmware])
            let caller = try OutsideCaller()
            let path = KBlink.keyboardPath(fixture.address).rawValue
            let keymapInterface = KBlink.keymapInterface.rawValue
            let properties = "org.freedesktop.DBus.Properties"
            // The stranger listens while root defines the macro, then (once told to go) reads every way it can.
            let ready = caller.directory.path + "/listening"
            let go = caller.directory.path + "/go"
            let reads: [OutsideCaller.Call] = [
                OutsideCaller.Call(
                    path: path, interface: properties, method: "Get", signature: "(ss)",
                    arguments: [.string(keymapInterface), .string("Macros")]),
                OutsideCaller.Call(
                    path: path, interface: properties, method: "GetAll", signature: "(s)",
                    arguments: [.string(keymapInterface)]),
                OutsideCaller.Call(
                    path: KBlink.managerPath.rawValue, interface: "org.freedesktop.DBus.ObjectManager",
                    method: "GetManagedObjects"),
                Self.keymapCall(fixture, "GetMacros"),
                Self.keymapCall(fixture, "ExportProfile"),
                Self.keymapCall(fixture, "GetBindings", signature: "(su)", [.string(""), .uint(0)]),
                Self.keymapCall(fixture, "Diff"),
                // Allowed edit-keymap, not read-macros: the import's answer lists the macro it replaced.
                Self.keymapCall(
                    fixture, "ImportProfile", signature: "(sa{sv})",
                    [
                        .string(
                            #"{"schemaVersion": 1, "layout": "aula-f87", "layers": [{"F1": "MACRO(login)"}], "macros": {"login": "ctrl+c"}}"#
                        ),
                        .dictionary([:]),
                    ]),
            ]
            let stranger = Task {
                try await caller.run(reads, on: fixture.harness.bus, listen: 0.5, ready: ready, go: go)
            }
            #expect(await eventually { FileManager.default.fileExists(atPath: ready) })
            try await keymap.setMacro(name: "login", definition: "text '\(Self.secret)', enter")
            try await keymap.setBinding(layer: 0, key: "F1", action: "MACRO(login)")
            // Not a 3 s pause before the first read, which a loaded machine could outlast before the macro existed.
            #expect(FileManager.default.createFile(atPath: go, contents: nil))
            let outcome = try await stranger.value

            #expect(!outcome.everything.contains(Self.secret), "macro text reached a stranger")
            // The name is there, its text empty, and the change did reach the stranger (so the search above saw it).
            #expect(outcome.answers[0].result?.contains("\"login\": \"\"") == true, "\(outcome.answers[0])")
            #expect(outcome.signals.contains { $0.hasPrefix("PropertiesChanged: ") && $0.contains("\"login\": \"\"") })
            #expect(outcome.answers[2].result?.contains("login") == true)
            #expect(outcome.answers[3].error == Self.notAuthorized)
            #expect(outcome.answers[3].message?.contains("org.kblink1.read-macros") == true)
            #expect(outcome.answers[4].error == Self.notAuthorized)
            // Diff leaves out the macro's row entirely (the key bound to it stays); the import answer says which
            // macro it replaced, its old text withheld.
            #expect(outcome.answers[6].error == nil, "\(outcome.answers[6])")
            #expect(outcome.answers[6].result?.contains("MACRO(login)") == true, "\(outcome.answers[6])")
            #expect(outcome.answers[6].result?.contains("\"macro\"") == false, "\(outcome.answers[6])")
            #expect(outcome.answers[6].result?.contains("(withheld)") == false, "\(outcome.answers[6])")
            #expect(outcome.answers[7].error == nil, "\(outcome.answers[7])")
            #expect(outcome.answers[7].result?.contains("(withheld)") == true, "\(outcome.answers[7])")

            // Root, who may read macros, sees the macro's row.
            #expect(try await keymap.diff().contains { $0.zone == "macro" && $0.key == "login" })
            // Control: with read-macros, the same caller gets the text (the import above made it ctrl+c).
            try await polkit.allow([.readMacros])
            let allowed = try await caller.run([Self.keymapCall(fixture, "GetMacros")], on: fixture.harness.bus)
            #expect(allowed.answers.first?.result?.contains(#""login": "ctrl+c""#) == true, "\(allowed.answers)")
        }
    }

    @Test("another user in the active session cannot read the first user's macro text without authentication")
    func macrosHaveOwners() async throws {
        try await StudioPushFixture.run(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) {
            fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            // What an active session gets by default: edit-keymap and read-macros yes, read-others-macros asks.
            try await polkit.allow([.editKeymap, .readMacros])
            let caller = try OutsideCaller()
            // A second local user besides nobody, who exists on every Debian system.
            let first = "daemon"
            let set = Self.keymapCall(
                fixture, "SetMacro", signature: "(ss)", [.string("login"), .string("text '\(Self.secret)', enter")])
            let setting = try await caller.run([set], on: fixture.harness.bus, user: first)
            #expect(setting.answers.first?.error == nil, "\(setting.answers)")

            let reads = [Self.keymapCall(fixture, "GetMacros"), Self.keymapCall(fixture, "Diff")]
            let other = try await caller.run(reads, on: fixture.harness.bus)
            #expect(!other.everything.contains(Self.secret), "another user read the macro")
            #expect(other.answers[0].error == Self.notAuthorized, "\(other.answers)")
            #expect(other.answers[0].message?.contains("org.kblink1.read-others-macros") == true)
            #expect(other.answers[1].result?.contains("login") == false, "\(other.answers)")

            // The user who set it reads it; so does root; and another user once polkit allows it.
            let own = try await caller.run(reads, on: fixture.harness.bus, user: first)
            #expect(own.answers[0].result?.contains(Self.secret) == true, "\(own.answers)")
            #expect(own.answers[1].result?.contains(Self.secret) == true, "\(own.answers)")
            #expect(try await keymap.macros()["login"]?.contains(Self.secret) == true)
            try await polkit.allow([.editKeymap, .readMacros, .readOthersMacros])
            let allowed = try await caller.run(reads, on: fixture.harness.bus)
            #expect(allowed.answers[0].result?.contains(Self.secret) == true, "\(allowed.answers)")
        }
    }

    @Test("every write of the contract is refused to a stranger polkit says no to, and nothing changes")
    func everyWriteIsGuarded() async throws {
        try await StudioPushFixture.run(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) {
            fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            let caller = try OutsideCaller()
            let keyboard = KBlink.keyboardPath(fixture.address).rawValue
            let manager = KBlink.managerPath.rawValue
            let address = fixture.address.description
            func call(
                _ path: String, _ interface: InterfaceName, _ method: String, _ signature: String = "",
                _ arguments: [OutsideCaller.JSONArgument] = []
            ) -> OutsideCaller.Call {
                OutsideCaller.Call(
                    path: path, interface: interface.rawValue, method: method, signature: signature,
                    arguments: arguments)
            }
            let properties = InterfaceName("org.freedesktop.DBus.Properties")
            let writes = [
                call(manager, KBlink.managerInterface, "StartDiscovery"),
                call(manager, KBlink.managerInterface, "Pair", "(s)", [.string(address)]),
                call(manager, KBlink.managerInterface, "CancelPairing", "(s)", [.string(address)]),
                call(manager, KBlink.managerInterface, "ConfirmPairing", "(sb)", [.string(address), .bool(true)]),
                call(manager, KBlink.managerInterface, "RemoveLayout", "(s)", [.string("any-layout")]),
                call(keyboard, KBlink.keyboardInterface, "Disconnect"),
                call(keyboard, KBlink.keyboardInterface, "Forget"),
                call(keyboard, KBlink.keyboardInterface, "SetTrusted", "(b)", [.bool(false)]),
                call(
                    keyboard, KBlink.keymapInterface, "SetBinding", "(suss)",
                    [.string(""), .uint(0), .string("A"), .string("KC_B")]),
                call(keyboard, KBlink.keymapInterface, "SetMacro", "(ss)", [.string("m"), .string("ctrl+c")]),
                call(keyboard, KBlink.keymapInterface, "ImportProfile", "(sa{sv})", [.string("{}"), .dictionary([:])]),
                call(keyboard, KBlink.keymapInterface, "AddLayer", "(u)", [.uint(1)]),
                call(keyboard, KBlink.keymapInterface, "RemoveLayer", "(u)", [.uint(3)]),
                call(keyboard, KBlink.keymapInterface, "CheckAction", "(s)", [.string("KC_A")]),
                call(keyboard, KBlink.keymapInterface, "Discard"),
                call(keyboard, KBlink.keymapInterface, "Pull"),
            ]
            let before = try await keymap.state()
            let outcome = try await caller.run(writes, on: fixture.harness.bus)
            for (write, answer) in zip(writes, outcome.answers) {
                #expect(answer.error == Self.notAuthorized, "\(write.method): \(answer)")
            }
            // Writing a property goes through the same check.
            let setZone = call(
                keyboard, properties, "Set", "(ssv)",
                [.string(KBlink.keymapInterface.rawValue), .string("CurrentZone"), .variant(type: "s", "numpad")])
            let set = try await caller.run([setZone], on: fixture.harness.bus)
            #expect(set.answers.first?.error == Self.notAuthorized, "\(set.answers)")
            let after = try await keymap.state()
            #expect(after.currentZone == before.currentZone && after.macros == before.macros && !after.dirty)
            let keyboards = try await fixture.harness.client().keyboards()
            #expect(keyboards.first?.paired == true && keyboards.first?.trusted == true)
            #expect(keyboards.first?.connected == true)
        }
    }
    @Test("kblink as a stranger: macro list shows the names with the text withheld; profile export says why it cannot")
    func commandLineWithoutReadMacros() async throws {
        try await StudioPushFixture.run(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) {
            fixture, keymap in
            let polkit = try await PolkitMock(bus: fixture.harness.bus)
            defer { Task { await polkit.stop() } }
            try await keymap.setMacro(name: "login", definition: "text '\(Self.secret)', enter")
            func kblinkAsStranger(_ arguments: [String]) async throws -> ProcessResult {
                try await runProcess(
                    "/usr/bin/setpriv",
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", DaemonHarness.binary("kblink")]
                        + arguments + ["--bus", fixture.harness.bus.address],
                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: .seconds(30))
            }
            let device = fixture.address.description
            let list = try await kblinkAsStranger(["macro", "list", device])
            #expect(list.status == 0, "\(list.standardError)")
            #expect(list.standardOutput.contains("login") && list.standardOutput.contains("(withheld)"))
            #expect(list.standardError.contains("org.kblink1.read-macros"))
            let json = try await kblinkAsStranger(["macro", "list", device, "--json"])
            #expect(json.standardOutput.contains("\"login\":null"), "\(json.standardOutput)")
            let export = try await kblinkAsStranger(["profile", "export", device, "-"])
            #expect(export.status == 1)
            #expect(export.standardError.contains("org.kblink1.read-macros"), "\(export.standardError)")
            for result in [list, json, export] {
                #expect(!(result.standardOutput + result.standardError).contains(Self.secret))
            }
            // Control: allowed to read macros (root set this one: another user's), the same command shows the text.
            try await polkit.allow([.readMacros, .readOthersMacros])
            let allowed = try await kblinkAsStranger(["macro", "list", device])
            #expect(allowed.standardOutput.contains(Self.secret), "\(allowed.standardOutput)")
        }
    }
}
