import Foundation
import Glibc
import KeyboardLinkTestSupport
import Testing

/// A private `dbus-daemon` configured like the system bus with a policy file included, and a stand-in for kblinkd
/// (run as root) owning `org.kblink1` on it.
final class PolicyTestBus {
    /// The bus or the service did not come up; carries their standard error.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Who runs a probe.
    enum Caller {
        case root
        /// `nobody`/`nogroup` with no supplementary groups.
        case otherUser
        /// `nobody`/`nogroup` with one supplementary group.
        case otherUserInGroup(String)

        var launcher: [String] {
            switch self {
            case .root: []
            case .otherUser: ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            case .otherUserInGroup(let group):
                ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=\(group)"]
            }
        }
    }

    let directory: String
    let address: String
    private let daemon: PolicyChildProcess
    private let service: PolicyChildProcess
    private let agentName: String
    private let slot: DaemonSlot

    /// Starts the bus with `policyPath` included and the service on it.
    init(policyPath: String) async throws {
        slot = await DaemonSlots.shared.acquire()
        directory = NSTemporaryDirectory() + "kblink-policy-" + UUID().uuidString
        // Readable by the other user: it runs the client script from here and connects to the socket.
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let socket = directory + "/bus"
        try Self.write(Self.busConfiguration(socket: socket, policyPath: policyPath), to: directory + "/bus.conf")
        try Self.write(PolicyScripts.service, to: directory + "/service.py")
        try Self.write(PolicyScripts.client, to: directory + "/client.py")

        daemon = try PolicyChildProcess(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(directory)/bus.conf", "--nofork", "--nosyslog", "--print-address=1"],
            errorPath: directory + "/dbus-daemon.err")
        var service: PolicyChildProcess?
        do {
            // The first line --print-address writes is the address; the socket exists by then.
            guard let line = try await daemon.readLine() else {
                throw StartFailure(description: "dbus-daemon printed no address: \(daemon.errorOutput)")
            }
            address = line
            // dbus-daemon creates the socket under the test's umask; the other user needs write permission.
            guard chmod(socket, 0o666) == 0 else { throw StartFailure(description: "chmod \(socket): errno \(errno)") }
            let started = try PolicyChildProcess(
                "/usr/bin/python3", ["-I", directory + "/service.py", address],
                errorPath: directory + "/service.err")
            service = started
            guard let ready = try await started.readLine()?.split(separator: " "), ready.count == 2, ready[0] == "ready"
            else {
                throw StartFailure(description: "the service did not start: \(started.errorOutput)")
            }
            agentName = String(ready[1])
            self.service = started
        } catch {
            service?.kill()
            daemon.kill()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Runs every probe as `caller` and returns probe name -> `ok` or the D-Bus error name.
    func probe(as caller: Caller) async throws -> [String: String] {
        let arguments = caller.launcher + ["/usr/bin/python3", "-I", directory + "/client.py", address, agentName]
        let client = try PolicyChildProcess(
            arguments[0], Array(arguments.dropFirst()), errorPath: directory + "/client-\(UUID().uuidString).err")
        defer { client.kill() }
        let output = try #require(try await client.readToEnd(), "the client did not finish: \(client.errorOutput)")
        try #require(try await client.exitStatus() == 0, "the client failed: \(client.errorOutput)")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        return decoded
    }

    /// Kills the service and the bus (SIGKILL by pid) and removes the directory.
    func stop() {
        service.kill()
        daemon.kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The system bus defaults of `/usr/share/dbus-1/system.conf` (every user may connect; owning names and
    /// method calls denied; signals, requested replies and errors allowed; everything may be received; the bus
    /// itself reachable), listening on a socket of our own, then the policy under test.
    static func busConfiguration(socket: String, policyPath: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <auth>EXTERNAL</auth>
          <listen>unix:path=\(socket)</listen>
          <policy context="default">
            <allow user="*"/>
            <deny own="*"/>
            <deny send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
            <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"
                  send_member="UpdateActivationEnvironment"/>
          </policy>
          <include>\(policyPath)</include>
        </busconfig>
        """
    }

    private static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, 0o644) == 0)
    }
}
