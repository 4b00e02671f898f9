import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// python-dbusmock's `polkitd` template on a test bus: `org.freedesktop.PolicyKit1` refusing everything until told
/// otherwise (`SetAllowed`, `SimulateHangActions`).
final class PolkitMock: Sendable {
    let process: ChildProcess
    let control: BusConnection

    init(bus: TestBus) async throws {
        process = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "polkitd"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        control = try await bus.connect()
        let control = control
        let started = try await eventually {
            try await control.nameOwner(of: BusName("org.freedesktop.PolicyKit1")) != nil
        }
        try #require(started, "python-dbusmock's polkitd template did not start: \(process.standardError)")
    }

    /// polkit says yes to these actions (and no to every other).
    func allow(_ actions: [PolkitAction]) async throws {
        try await mock("SetAllowed", [.array(.string, actions.map { .string($0.id) })])
    }

    /// polkit never answers checks of these actions.
    func hang(_ actions: [PolkitAction]) async throws {
        try await mock("SimulateHangActions", [.array(.string, actions.map { .string($0.id) })])
    }

    /// Whether a check is waiting for an answer that never comes.
    func hasHangingChecks() async throws -> Bool {
        try await mock("HaveHangingCalls").body.first?.boolValue == true
    }

    @discardableResult
    private func mock(_ member: String, _ arguments: [DBusValue] = []) async throws -> Message {
        try await control.call(
            destination: BusName("org.freedesktop.PolicyKit1"),
            path: ObjectPath("/org/freedesktop/PolicyKit1/Authority"),
            interface: InterfaceName("org.freedesktop.DBus.Mock"), member: MemberName(member), arguments)
    }

    func stop() async {
        await control.close()
        process.signal(SIGKILL)
    }
}

/// A local user who is not root (`nobody`, through `setpriv`) calling kblinkd with a Python GLib client: what a
/// stranger on the machine can get. Each call is given as a D-Bus signature and JSON arguments; the answers and
/// every signal the connection received come back as JSON, so a test can search them for what must not be there.
struct OutsideCaller {
    /// One method call.
    struct Call: Encodable {
        var path: String
        var interface: String
        var method: String
        /// The arguments' GVariant signature, such as `(ss)`; empty for none.
        var signature = ""
        var arguments: [JSONArgument] = []
        /// Wait this long (seconds) before the call, listening for signals.
        var delay = 0.0
    }

    /// A JSON argument of a call.
    enum JSONArgument: Encodable {
        case string(String)
        case bool(Bool)
        case uint(UInt32)
        case dictionary([String: String])
        /// A variant holding a value of this GVariant type, such as `("s", "numpad")`.
        case variant(type: String, String)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .dictionary(let value): try container.encode(value)
            case .variant(let type, let value): try container.encode([type, value])
            }
        }
    }

    /// What the caller got.
    struct Outcome: Decodable {
        struct Answer: Decodable {
            var result: String?
            var error: String?
            var message: String?
        }
        var name: String
        var answers: [Answer]
        /// Every signal received, as `member: body` text.
        var signals: [String]

        /// Everything received, results, errors and signals, as one text to search.
        var everything: String {
            (answers.flatMap { [$0.result, $0.error, $0.message].compactMap { $0 } } + signals).joined(separator: "\n")
        }
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        // Writable by nobody too: the caller marks there when it listens.
        try #require(chmod(directory.path, 0o777) == 0)
        let script = directory.path + "/caller.py"
        try Self.script.write(toFile: script, atomically: false, encoding: .utf8)
        try #require(chmod(script, 0o644) == 0)
    }

    /// Runs the calls in order as `nobody`, then listens `listen` seconds more.
    /// - Parameters:
    ///   - ready: a file the caller creates once it listens for signals, before the first call.
    ///   - go: a file the caller waits for (listening meanwhile) before its first call: the test creates it once
    ///     what the caller should see has happened.
    /// - Parameter user: the user (and group of the same name) to run as, who must exist; nil for `nobody`.
    func run(
        _ calls: [Call], on bus: TestBus, listen: Double = 0, ready: String? = nil, go: String? = nil,
        user: String? = nil
    ) async throws -> Outcome {
        let specification = String(decoding: try JSONEncoder().encode(calls), as: UTF8.self)
        let identity = user.map { ["--reuid=\($0)", "--regid=\($0)"] } ?? ["--reuid=nobody", "--regid=nogroup"]
        let result = try await runProcess(
            "/usr/bin/setpriv",
            identity + [
                "--clear-groups", "/usr/bin/python3", "-I",
                directory.path + "/caller.py", bus.address, specification, String(listen), ready ?? "", go ?? "",
            ], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: .seconds(240))
        try #require(result.status == 0, "the caller failed: \(result.standardError)")
        return try JSONDecoder().decode(Outcome.self, from: Data(result.standardOutput.utf8))
    }

    static let script = """
        import json, os, sys, time
        from gi.repository import Gio, GLib
        address, specification, listen, ready = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
        go = sys.argv[5]
        connection = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        out = {"name": connection.get_unique_name(), "answers": [], "signals": []}

        def received(connection, sender, path, interface, member, parameters):
            out["signals"].append(member + ": " + json.dumps(parameters.unpack(), default=str))

        # Every signal that reaches this connection: broadcasts it subscribes to and unicasts addressed to it.
        connection.signal_subscribe(None, None, None, None, None, Gio.DBusSignalFlags.NONE, received)
        context = GLib.MainContext.default()

        def pump(seconds):
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                context.iteration(False)
                time.sleep(0.01)

        pump(0.2)
        if ready:
            open(ready, "w").close()
        if go:
            end = time.monotonic() + 180
            while not os.path.exists(go) and time.monotonic() < end:
                pump(0.01)
        for call in specification:
            pump(call["delay"])
            answer = {}
            arguments = [GLib.Variant(a[0], a[1]) if isinstance(a, list) else a for a in call["arguments"]]
            parameters = GLib.Variant(call["signature"], tuple(arguments)) if call["signature"] else None
            try:
                reply = connection.call_sync(
                    "org.kblink1", call["path"], call["interface"], call["method"], parameters, None,
                    Gio.DBusCallFlags.NONE, 60000, None)
                answer["result"] = json.dumps(reply.unpack(), default=str)
            except GLib.Error as error:
                answer["error"] = Gio.DBusError.get_remote_error(error)
                Gio.DBusError.strip_remote_error(error)
                answer["message"] = error.message
            out["answers"].append(answer)
        pump(listen)
        print(json.dumps(out))
        """
}
