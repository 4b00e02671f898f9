import Foundation
import Glibc
import KeyboardLinkTestSupport
import Testing

/// `systemd/org.kblink1.conf` on a private bus that starts from the system bus defaults.
@Suite("D-Bus policy org.kblink1.conf")
struct DBusPolicyTests {
    static let denied = "org.freedesktop.DBus.Error.AccessDenied"

    /// Probes that only read: allowed for everybody.
    static let reads = [
        "Introspect", "Get", "GetAll", "GetManagedObjects", "Ping", "ListKeyboards", "ResolveInsets", "GetBindings",
        "Diff", "ExportProfile", "Signal",
    ]
    /// Probes that change something: the bus lets everyone reach them, and kblinkd asks polkit about each caller
    /// (the stand-in service here answers them all).
    static let mutations = ["StartDiscovery", "Set", "Connect", "SetBinding", "Pair", "CancelPairing"]
    /// A call that names no interface: it matches no rule for other users, so only root and the kblink group.
    static let unnamed = ["StartDiscoveryWithoutInterface"]

    static func expected(reads: String, mutations: String, unnamed: String, requestName: String, agent: String)
        -> [String: String]
    {
        var result: [String: String] = [:]
        for probe in Self.reads { result[probe] = reads }
        for probe in Self.mutations { result[probe] = mutations }
        for probe in Self.unnamed { result[probe] = unnamed }
        result["RequestName"] = requestName
        result["AgentRelease"] = agent
        return result
    }

    /// The probes whose outcome differs from `expected`, as readable lines (empty when all match).
    static func mismatches(_ results: [String: String], _ expected: [String: String]) -> [String] {
        Set(results.keys).union(expected.keys).sorted().compactMap { probe in
            let got = results[probe] ?? "(not run)"
            let want = expected[probe] ?? "(not expected)"
            return got == want ? nil : "\(probe): got \(got), expected \(want)"
        }
    }

    init() throws {
        try #require(getuid() == 0, "the policy tests run callers as other users with setpriv, which needs root")
    }

    @Test("another user reaches every method that names its interface (kblinkd decides), but not the agent or the name")
    func otherUser() async throws {
        let bus = try await PolicyTestBus(policyPath: RepositoryFiles.policy)
        defer { bus.stop() }
        let results = try await bus.probe(as: .otherUser)
        #expect(
            Self.mismatches(
                results,
                Self.expected(
                    reads: "ok", mutations: "ok", unnamed: Self.denied, requestName: Self.denied, agent: Self.denied))
                == [])
    }

    @Test("root may call everything, own the name and call the pairing agent")
    func root() async throws {
        let bus = try await PolicyTestBus(policyPath: RepositoryFiles.policy)
        defer { bus.stop() }
        let results = try await bus.probe(as: .root)
        #expect(
            Self.mismatches(
                results, Self.expected(reads: "ok", mutations: "ok", unnamed: "ok", requestName: "ok", agent: "ok"))
                == [])
    }

    @Test("members of the kblink group may also send calls without an interface, but not own the name")
    func groupMember() async throws {
        // The group rule is exercised with a group that exists here ("users"), substituted into a copy of the
        // policy: creating a "kblink" group would change the machine. dbus-daemon reads the caller's groups from
        // the socket (SO_PEERGROUPS), so setpriv --groups is what it sees.
        let policy = try String(contentsOfFile: RepositoryFiles.policy, encoding: .utf8)
        let substituted = policy.replacingOccurrences(of: #"group="kblink""#, with: #"group="users""#)
        try #require(substituted != policy, "the policy has no group=\"kblink\" rule")
        let copy = NSTemporaryDirectory() + "org.kblink1-users-\(UUID().uuidString).conf"
        try substituted.write(toFile: copy, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try #require(getgrnam("users") != nil, "the test needs the group \"users\"")

        let bus = try await PolicyTestBus(policyPath: copy)
        defer { bus.stop() }
        let member = try await bus.probe(as: .otherUserInGroup("users"))
        #expect(
            Self.mismatches(
                member,
                Self.expected(
                    reads: "ok", mutations: "ok", unnamed: "ok", requestName: Self.denied, agent: Self.denied))
                == [])
        let stranger = try await bus.probe(as: .otherUser)
        #expect(
            Self.mismatches(
                stranger,
                Self.expected(
                    reads: "ok", mutations: "ok", unnamed: Self.denied, requestName: Self.denied, agent: Self.denied))
                == [])
    }

    @Test("the user kblinkd may own org.kblink1 and nothing more")
    func daemonUser() async throws {
        // As for the group: the user rule is exercised with a user that exists here ("nobody"), substituted into a
        // copy of the policy.
        let policy = try String(contentsOfFile: RepositoryFiles.policy, encoding: .utf8)
        let substituted = policy.replacingOccurrences(of: #"user="kblinkd""#, with: #"user="nobody""#)
        try #require(substituted != policy, "the policy has no user=\"kblinkd\" rule")
        let copy = NSTemporaryDirectory() + "org.kblink1-nobody-\(UUID().uuidString).conf"
        try substituted.write(toFile: copy, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }

        let bus = try await PolicyTestBus(policyPath: copy)
        defer { bus.stop() }
        let daemonUser = try await bus.probe(as: .otherUser)
        #expect(
            Self.mismatches(
                daemonUser,
                Self.expected(
                    reads: "ok", mutations: "ok", unnamed: Self.denied, requestName: "ok", agent: Self.denied))
                == [])
    }

    @Test("control: without the policy, even root cannot own org.kblink1")
    func withoutPolicy() async throws {
        // Control: with an empty policy in its place, root's stand-in cannot even own the name.
        let empty = NSTemporaryDirectory() + "empty-policy-\(UUID().uuidString).conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig/>
        """.write(toFile: empty, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        await #expect {
            let bus = try await PolicyTestBus(policyPath: empty)
            bus.stop()
        } throws: { error in
            let text = (error as? PolicyTestBus.StartFailure)?.description ?? ""
            return text.contains("AccessDenied") && text.contains("not allowed to own the service \"org.kblink1\"")
        }
    }
}
