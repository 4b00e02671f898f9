import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The ``Authorizer`` on a private bus against python-dbusmock's `polkitd` template, with callers running as
/// `nobody` (setpriv) and as root. Must run as root.
@Suite("Authorizer: polkit per action, root, the group fallback and kblinkd-demo")
struct AuthorizerTests {
    static let notAuthorized = "org.kblink1.Error.NotAuthorized"

    @Test("root is allowed without asking polkit")
    func rootSkipsPolkit() async throws {
        let fixture = try await AuthorizationFixture(policy: .polkit())
        defer { Task { await fixture.stop() } }
        #expect(try await fixture.checkAsRoot(.writeFirmware) == "root")
        #expect(try await fixture.polkitChecks().isEmpty)
    }

    @Test("polkit's no is NotAuthorized with advice; its yes allows; the subject is the caller's bus name")
    func polkitDecides() async throws {
        let fixture = try await AuthorizationFixture(policy: .polkit())
        defer { Task { await fixture.stop() } }
        let refused = try await fixture.call("Check", .writeFirmware)
        #expect(refused.error == Self.notAuthorized)
        #expect(refused.message?.contains("org.kblink1.write-firmware") == true)
        #expect(refused.message?.contains("ask an administrator") == true)

        try await fixture.mock("SetAllowed", [.array(.string, [.string(PolkitAction.writeFirmware.id)])])
        let allowed = try await fixture.call("Check", .writeFirmware)
        #expect(allowed.result == "polkit")
        // Another action stays refused.
        #expect(try await fixture.call("Check", .readMacros).error == Self.notAuthorized)

        let checks = try await fixture.polkitChecks()
        #expect(
            checks.map(\.action) == [
                PolkitAction.writeFirmware.id, PolkitAction.writeFirmware.id, PolkitAction.readMacros.id,
            ])
        #expect(checks.prefix(2).map(\.name) == [refused.name, allowed.name])
        // A refusal is in the journal with the caller.
        #expect(
            fixture.log.contains {
                $0.0 == .notice && $0.1.hasPrefix("audit: org.kblink1.write-firmware by uid 65534 pid ")
                    && $0.1.hasSuffix("refused: org.kblink1.Error.NotAuthorized")
            }, "\(fixture.log)")
    }

    @Test("polkit may ask the person only when the call carries ALLOW_INTERACTIVE_AUTHORIZATION")
    func interactiveFlag() async throws {
        let fixture = try await AuthorizationFixture(policy: .polkit())
        defer { Task { await fixture.stop() } }
        try await fixture.mock("AllowUnknown", [.boolean(true)])
        let plain = try await fixture.call("Check", .pair)
        let interactive = try await fixture.call("Check", .pair, interactive: true)
        #expect(plain.result == "polkit" && interactive.result == "polkit")
        let flags = Dictionary(uniqueKeysWithValues: try await fixture.polkitChecks().map { ($0.name, $0.flags) })
        #expect(flags[plain.name] == 0)
        #expect(flags[interactive.name] == 1)
    }

    @Test("a yes is reused for the same caller within its lifetime; a no is asked again every time")
    func grantsAreKeptBriefly() async throws {
        var policy = AuthorizationPolicy.polkit()
        policy.grantLifetime = .seconds(600)
        let fixture = try await AuthorizationFixture(policy: policy)
        defer { Task { await fixture.stop() } }
        try await fixture.mock("SetAllowed", [.array(.string, [.string(PolkitAction.editKeymap.id)])])
        let allowed = try await fixture.call("Check", .editKeymap, times: 3)
        #expect(allowed.answers.map(\.result) == ["polkit", "polkit", "polkit"])
        let refused = try await fixture.call("Check", .readMacros, times: 3)
        #expect(refused.answers.map(\.error) == Array(repeating: Self.notAuthorized, count: 3))
        let checks = try await fixture.polkitChecks()
        #expect(checks.filter { $0.name == allowed.name }.count == 1)
        #expect(checks.filter { $0.name == refused.name }.count == 3)
        // The three refusals within a minute are one audit record; the next one after the minute counts them.
        let refusals = fixture.log.filter { $0.1.hasPrefix("audit: org.kblink1.read-macros") }
        #expect(refusals.count == 1, "\(refusals)")
    }

    @Test("a hanging polkit fails the waiting call after the timeout while other calls are answered")
    func hangingPolkit() async throws {
        var policy = AuthorizationPolicy.polkit()
        policy.timeout = .seconds(4)
        let fixture = try await AuthorizationFixture(policy: policy)
        defer { Task { await fixture.stop() } }
        try await fixture.mock("SetAllowed", [.array(.string, [.string(PolkitAction.pair.id)])])
        try await fixture.mock("SimulateHangActions", [.array(.string, [.string(PolkitAction.writeFirmware.id)])])
        let hanging = Task { try await fixture.call("Check", .writeFirmware) }
        #expect(
            try await eventually {
                try await fixture.mock("HaveHangingCalls").body.first?.boolValue == true
            })
        // While polkit sits on that check, another caller's check is answered.
        let other = try await fixture.call("Check", .pair)
        #expect(other.result == "polkit")
        #expect(try await fixture.mock("HaveHangingCalls").body.first?.boolValue == true)
        let timedOut = try await hanging.value
        #expect(timedOut.error == Self.notAuthorized)
        #expect(timedOut.message?.contains("polkit did not answer") == true)
        #expect(fixture.log.contains { $0.0 == .warning && $0.1.contains("polkit could not check") })
    }

    @Test("without polkit only root and the configured group are allowed, and the journal says so once")
    func polkitAbsent() async throws {
        let fixture = try await AuthorizationFixture(policy: .polkit(fallbackGroup: "audio"), withPolkit: false)
        defer { Task { await fixture.stop() } }
        let outsider = try await fixture.call("Check", .editKeymap)
        #expect(outsider.error == Self.notAuthorized)
        #expect(outsider.message?.contains("usermod -aG audio") == true)
        let member = try await fixture.call("Check", .editKeymap, as: .nobodyInGroup("audio"))
        #expect(member.result == "group audio, polkit absent")
        #expect(try await fixture.checkAsRoot(.writeFirmware) == "root")
        let warnings = fixture.log.filter {
            $0.0 == .warning && $0.1.contains("polkit (org.freedesktop.PolicyKit1) is not on the bus")
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.1.contains("members of the group 'audio'") == true)
    }

    @Test("kblinkd-demo allows the user who started the daemon, and nobody else")
    func simulate() async throws {
        let nobody = try #require(UnixAccountsProbe.nobodyUID)
        let owner = try await AuthorizationFixture(
            policy: AuthorizationPolicy(mode: .simulate(ownerUID: nobody)), withPolkit: false)
        defer { Task { await owner.stop() } }
        #expect(try await owner.call("Check", .writeFirmware).result == "the user running kblinkd-demo")

        let other = try await AuthorizationFixture(
            policy: AuthorizationPolicy(mode: .simulate(ownerUID: nobody - 1)), withPolkit: false)
        defer { Task { await other.stop() } }
        let refused = try await other.call("Check", .writeFirmware)
        #expect(refused.error == Self.notAuthorized)
        #expect(refused.message?.contains("kblinkd-demo") == true)
    }

    @Test("an authorized write is audited with the action, the object, uid, pid and command name")
    func audit() async throws {
        let fixture = try await AuthorizationFixture(policy: .polkit())
        defer { Task { await fixture.stop() } }
        try await fixture.mock("SetAllowed", [.array(.string, [.string(PolkitAction.writeFirmware.id)])])
        let outcome = try await fixture.call("Write", .writeFirmware)
        #expect(outcome.result == "polkit")
        let expected =
            "audit: org.kblink1.write-firmware Write on /org/kblink1/test/keyboard by uid 65534 pid \(outcome.pid) "
            + "(python3) \(outcome.name), allowed by polkit"
        #expect(fixture.log.contains { $0.0 == .notice && $0.1 == expected }, "\(fixture.log)")
    }
}

/// Looks up `nobody` the way the daemon looks up accounts.
enum UnixAccountsProbe {
    static var nobodyUID: UInt32? {
        guard let entry = getpwnam("nobody") else { return nil }
        return entry.pointee.pw_uid
    }
}
