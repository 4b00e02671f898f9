import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A user's desktop session for the OSK agent's tests: a private session bus, the real `dconf-service` (Debian's)
/// with its database in a temporary home, the real GSettings schemas, `gsettings` to read and write as a user
/// does, python-dbusmock for squeekboard and KWin, and `kblink osk-agent` itself.
final class DesktopSession: Sendable {
    let home: TemporaryDirectory
    let bus: TestBus
    let dconf: ChildProcess
    let mocks = MockProcesses()

    /// The mocks started, killed at the end.
    final class MockProcesses: @unchecked Sendable {
        // Why @unchecked Sendable is safe: `children` is only touched under `lock`.
        private let lock = NSLock()
        private var children: [ChildProcess] = []
        func add(_ child: ChildProcess) { lock.withLock { children.append(child) } }
        func killAll() { lock.withLock { for child in children { child.signal(SIGKILL) } } }
    }

    init() async throws {
        home = try TemporaryDirectory()
        for directory in ["config", "state", "run"] {
            try FileManager.default.createDirectory(
                atPath: home.path + "/" + directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        bus = try await TestBus()
        dconf = try ChildProcess("/usr/libexec/dconf-service", [], environment: Self.environment(home, bus))
        let connection = try await bus.connect()
        let owned = try await eventually {
            try await connection.nameOwner(of: BusName("ca.desrt.dconf")) != nil
        }
        await connection.close()
        try #require(owned, "dconf-service did not take ca.desrt.dconf: \(dconf.standardError)")
    }

    static func environment(_ home: TemporaryDirectory, _ bus: TestBus) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config",
            "XDG_STATE_HOME": home.path + "/state", "XDG_RUNTIME_DIR": home.path + "/run",
            "XDG_DATA_DIRS": "/usr/share", "GSETTINGS_BACKEND": "dconf", "PATH": "/usr/bin:/bin",
        ]
    }

    var environment: [String: String] { Self.environment(home, bus) }

    /// `gsettings ARGS` as the user runs it.
    func gsettings(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess("/usr/bin/gsettings", arguments, environment: environment)
    }

    /// `gsettings get org.gnome.desktop.a11y.applications screen-keyboard-enabled`: `true` or `false`.
    func screenKeyboard() async throws -> String {
        let result = try await gsettings([
            "get", OSKDesktopNames.screenKeyboardSchema, OSKDesktopNames.screenKeyboardKey,
        ])
        try #require(result.status == 0, "gsettings get failed: \(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `gsettings set ... screen-keyboard-enabled VALUE`.
    func setScreenKeyboard(_ value: Bool) async throws {
        let result = try await gsettings([
            "set", OSKDesktopNames.screenKeyboardSchema, OSKDesktopNames.screenKeyboardKey, value ? "true" : "false",
        ])
        try #require(result.status == 0, "gsettings set failed: \(result.standardError)")
    }

    /// `dconf read` of the key: empty when the user's database does not set it.
    func dconfRead() async throws -> String {
        let result = try await runProcess(
            "/usr/bin/dconf", ["read", OSKDesktopNames.screenKeyboardPath], environment: environment)
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `kblink osk-agent` following kblinkd on `kblinkBus`, and waits until it has read kblinkd's state.
    func agent(kblinkBus: String, _ arguments: [String] = []) async throws -> ChildProcess {
        let agent = try ChildProcess(
            DaemonHarness.binary("kblink"),
            ["osk-agent", "--bus", kblinkBus, "--session-bus", bus.address] + arguments, environment: environment)
        mocks.add(agent)
        let started = await eventually { agent.standardOutput.contains("kblinkd says") }
        try #require(started, "the agent did not start: \(agent.standardOutput) \(agent.standardError)")
        return agent
    }

    /// Starts one of our python-dbusmock templates on the session bus and waits for its name.
    func mock(_ template: String, name: String) async throws {
        let path = try #require(
            Bundle.module.path(forResource: template, ofType: "py", inDirectory: "Fixtures/dbusmock"))
        let mock = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--session", "--template", path], environment: environment)
        mocks.add(mock)
        let connection = try await bus.connect()
        let owned = try await eventually {
            try await connection.nameOwner(of: BusName(name)) != nil
        }
        await connection.close()
        try #require(owned, "the \(template) mock did not start: \(mock.standardError)")
    }

    /// A property of a session-bus object.
    func property(_ name: String, of object: ObjectPath, interface: String, at destination: String) async throws
        -> DBusValue
    {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        return try await DBusProxy(
            connection: connection, destination: BusName(destination), path: object,
            interface: InterfaceName(interface)
        ).property(MemberName(name))
    }

    func stop() {
        mocks.killAll()
        dconf.signal(SIGKILL)
        bus.daemon.stop()
        home.remove()
    }
}

/// Runs `body` with a desktop session, stopping it afterwards.
func withDesktopSession<T>(_ body: (DesktopSession) async throws -> T) async throws -> T {
    let session = try await DesktopSession()
    defer { session.stop() }
    return try await body(session)
}

extension ChildProcess {
    /// The lines of standard output containing `text`.
    func lines(containing text: String) -> [String] {
        standardOutput.split(separator: "\n").map(String.init).filter { $0.contains(text) }
    }
}
