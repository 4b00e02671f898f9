import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A private bus with, optionally, python-dbusmock's `polkitd` template owning `org.freedesktop.PolicyKit1`, and a
/// test service whose methods go through an ``Authorizer``: `Check(s action) -> s` answers why the caller was allowed
/// (or the refusal), `Write(s action) -> s` also writes the audit line.
///
/// Callers run as `nobody` through `setpriv` (a Python GLib client: it can set `ALLOW_INTERACTIVE_AUTHORIZATION`), or
/// in this process as root.
final class AuthorizationFixture: Sendable {
    static let serviceName: BusName = "org.kblink1.test"
    static let servicePath: ObjectPath = "/org/kblink1/test/keyboard"
    static let serviceInterface: InterfaceName = "org.kblink1.test.Guarded"
    static let mockInterface: InterfaceName = "org.freedesktop.DBus.Mock"

    let bus: TestBus
    let server: BusConnection
    let control: BusConnection
    let authorizer: Authorizer
    let polkit: ChildProcess?
    let directory: String
    private let lines = LogLines()

    /// The authorizer's reports, collected.
    final class LogLines: Sendable {
        let entries = Mutex<[(AuthorizationLog.Level, String)]>([])
    }

    /// What a `nobody` caller got.
    struct Outcome: Decodable {
        /// One call's answer.
        struct Answer: Decodable {
            var result: String?
            var error: String?
            var message: String?
        }
        var pid: Int
        var name: String
        var answers: [Answer]

        var result: String? { answers.first?.result }
        var error: String? { answers.first?.error }
        var message: String? { answers.first?.message }
    }

    /// Who runs a caller.
    enum Caller {
        case nobody
        case nobodyInGroup(String)

        var launcher: [String] {
            switch self {
            case .nobody: ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            case .nobodyInGroup(let group):
                ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=\(group)"]
            }
        }
    }

    /// Starts the bus, the polkit mock when `withPolkit`, and the service with `policy`.
    init(policy: AuthorizationPolicy, withPolkit: Bool = true) async throws {
        bus = try await TestBus()
        let collected = lines
        directory = NSTemporaryDirectory() + "kblink-authorization-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Self.callerScript.write(toFile: directory + "/caller.py", atomically: false, encoding: .utf8)
        try #require(chmod(directory + "/caller.py", 0o644) == 0)
        control = try await bus.connect()
        if withPolkit {
            let mock = try ChildProcess(
                "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "polkitd"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
            polkit = mock
            let control = control
            let started = try await eventually {
                try await control.nameOwner(of: BusName("org.freedesktop.PolicyKit1")) != nil
            }
            try #require(started, "python-dbusmock's polkitd template did not start")
        } else {
            polkit = nil
        }
        server = try await bus.connect()
        let authorizer = Authorizer(
            connection: server, policy: policy,
            log: AuthorizationLog { level, line in collected.entries.withLock { $0.append((level, line)) } })
        self.authorizer = authorizer
        let interface = DBusInterface(
            Self.serviceInterface,
            methods: [
                DBusMethod("Check", arguments: ["action"], result: "basis") {
                    (call: MethodCallContext, action: String) async throws -> String in
                    let grant = try await authorizer.authorize(try Self.action(action), for: call)
                    return grant.basis.description
                },
                DBusMethod("Write", arguments: ["action"], result: "basis") {
                    (call: MethodCallContext, action: String) async throws -> String in
                    let grant = try await authorizer.authorize(try Self.action(action), for: call)
                    authorizer.audit(grant, object: call.path, operation: "Write")
                    return grant.basis.description
                },
            ])
        try await server.export(interface, at: Self.servicePath)
        try await server.requestName(Self.serviceName)
    }

    private static func action(_ id: String) throws -> PolkitAction {
        guard let action = PolkitAction(rawValue: id) else { throw DBusError.invalidArgs("no action \(id)") }
        return action
    }

    /// Calls `method` as another user, with or without `ALLOW_INTERACTIVE_AUTHORIZATION`.
    /// - Parameter times: how many calls the one caller makes, one after the other.
    func call(
        _ method: String, _ action: PolkitAction, as caller: Caller = .nobody, interactive: Bool = false,
        times: Int = 1
    ) async throws -> Outcome {
        let arguments =
            caller.launcher + [
                "/usr/bin/python3", "-I", directory + "/caller.py", bus.address, method, action.id,
                interactive ? "yes" : "no", String(times),
            ]
        let result = try await runProcess(
            arguments[0], Array(arguments.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
            timeout: .seconds(60))
        try #require(result.status == 0, "the caller failed: \(result.standardError)")
        return try JSONDecoder().decode(Outcome.self, from: Data(result.standardOutput.utf8))
    }

    /// Calls `Check` from this process (root).
    func checkAsRoot(_ action: PolkitAction) async throws -> String {
        let reply = try await control.call(
            destination: Self.serviceName, path: Self.servicePath, interface: Self.serviceInterface,
            member: MemberName("Check"), [.string(action.id)])
        return try reply.decode(String.self)
    }

    /// Calls a method of the polkit mock's `org.freedesktop.DBus.Mock` interface.
    @discardableResult
    func mock(_ member: String, _ arguments: [DBusValue] = []) async throws -> Message {
        try await control.call(
            destination: BusName("org.freedesktop.PolicyKit1"),
            path: ObjectPath("/org/freedesktop/PolicyKit1/Authority"),
            interface: Self.mockInterface, member: MemberName(member), arguments)
    }

    /// The `CheckAuthorization` calls the mock received: (subject's bus name, action id, flags).
    func polkitChecks() async throws -> [(name: String, action: String, flags: UInt32)] {
        let reply = try await mock("GetCalls")
        let calls = reply.body.first?.arrayValue ?? []
        return calls.compactMap { call in
            guard case .structure(let fields) = call, fields.count == 3, fields[1].stringValue == "CheckAuthorization",
                let arguments = fields[2].arrayValue, arguments.count == 5,
                case .structure(let subject) = arguments[0].unwrapped, subject.count == 2,
                case .dictionary(_, _, let subjectDetails) = subject[1],
                let name = subjectDetails.first(where: { $0.key.stringValue == "name" })?.value.unwrapped.stringValue,
                let action = arguments[1].unwrapped.stringValue,
                case .uint32(let flags) = arguments[3].unwrapped
            else { return nil }
            return (name, action, flags)
        }
    }

    /// What the authorizer reported so far.
    var log: [(AuthorizationLog.Level, String)] { lines.entries.withLock { $0 } }

    func stop() async {
        await control.close()
        await server.close()
        polkit?.signal(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The caller: connects to the bus as whoever runs it, calls the test service, prints its pid, unique name and
    /// the result or the error's name and message as JSON.
    static let callerScript = """
        import json, os, sys
        from gi.repository import Gio, GLib
        address, method, action, interactive, times = sys.argv[1:6]
        connection = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        flags = Gio.DBusCallFlags.ALLOW_INTERACTIVE_AUTHORIZATION if interactive == "yes" else Gio.DBusCallFlags.NONE
        out = {"pid": os.getpid(), "name": connection.get_unique_name(), "answers": []}
        for _ in range(int(times)):
            answer = {}
            try:
                reply = connection.call_sync(
                    "org.kblink1.test", "/org/kblink1/test/keyboard", "org.kblink1.test.Guarded", method,
                    GLib.Variant("(s)", (action,)), GLib.VariantType("(s)"), flags, 30000, None)
                answer["result"] = reply.unpack()[0]
            except GLib.Error as error:
                answer["error"] = Gio.DBusError.get_remote_error(error)
                Gio.DBusError.strip_remote_error(error)
                answer["message"] = error.message
            out["answers"].append(answer)
        print(json.dumps(out))
        """
}
