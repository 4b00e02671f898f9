import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `systemd/kblinkd.service` and `systemd/org.kblink1.service`: the keys issue 3 requires, checked by parsing the
/// files (unit files are INI, so kblink's own parser reads them), and the unit checked by `systemd-analyze verify`.
@Suite("systemd unit and D-Bus activation file")
struct ServiceUnitTests {
    static func document(_ path: String) throws -> INIDocument {
        try INIDocument(parsing: String(contentsOfFile: path, encoding: .utf8), fileName: path)
    }

    static let requiredUnitKeys: [(String, String, String)] = [
        ("Service", "Type", "notify"),
        ("Service", "BusName", "org.kblink1"),
        ("Service", "ExecStart", "/usr/local/bin/kblinkd --bus system"),
        ("Service", "ExecReload", "/bin/kill -HUP $MAINPID"),
        ("Service", "NotifyAccess", "main"),
        ("Service", "WatchdogSec", "30"),
        ("Service", "Restart", "on-failure"),
        ("Service", "ProtectSystem", "strict"),
        ("Service", "ProtectHome", "true"),
        ("Service", "PrivateTmp", "true"),
        ("Service", "NoNewPrivileges", "true"),
        ("Service", "CapabilityBoundingSet", ""),
        ("Service", "StateDirectory", "kblink"),
        ("Service", "StateDirectoryMode", "0700"),
        ("Service", "ConfigurationDirectory", "kblink"),
        ("Service", "ProtectKernelTunables", "true"),
        ("Service", "ProtectControlGroups", "true"),
        ("Service", "RestrictAddressFamilies", "AF_UNIX"),
        ("Service", "PrivateNetwork", "yes"),
        ("Service", "User", "kblinkd"),
        ("Service", "Group", "kblinkd"),
        ("Service", "MemoryMax", "256M"),
        ("Service", "TasksMax", "128"),
        ("Service", "DevicePolicy", "closed"),
        ("Install", "WantedBy", "multi-user.target"),
        ("Install", "Alias", "dbus-org.kblink1.service"),
    ]

    @Test("kblinkd.service sets each required key", arguments: requiredUnitKeys)
    func requiredKey(section: String, key: String, value: String) throws {
        let unit = try Self.document(RepositoryFiles.unit)
        let entry = try #require(unit.entry(section: section, key: key), "[\(section)] \(key) is missing")
        #expect(entry.value == value)
    }

    @Test("device access is hidraw only, and nothing hides /dev/hidraw*, /dev/input or /proc/bus/input/devices")
    func deviceAccess() throws {
        let unit = try Self.document(RepositoryFiles.unit)
        #expect(unit.values(section: "Service", key: "DeviceAllow") == ["char-hidraw rw"])
        // ProtectProc would hide callers' /proc/PID/comm, which the audit lines name.
        for hiding in ["PrivateDevices", "ProcSubset", "InaccessiblePaths", "PrivateUsers", "ProtectProc"] {
            #expect(unit.entry(section: "Service", key: hiding) == nil, "\(hiding) would break kblinkd")
        }
        // A fixed user (sysusers.d), which the D-Bus policy lets own org.kblink1 and the udev rule gives VIA nodes.
        #expect(unit.entry(section: "Service", key: "DynamicUser") == nil)
    }

    @Test("the D-Bus activation file starts the unit through its alias, as kblinkd, with the unit's command")
    func activationFile() throws {
        let activation = try Self.document(RepositoryFiles.activation)
        let unit = try Self.document(RepositoryFiles.unit)
        #expect(activation.sections.map(\.name) == ["D-BUS Service"])
        #expect(activation.entry(section: "D-BUS Service", key: "Name")?.value == "org.kblink1")
        #expect(activation.entry(section: "D-BUS Service", key: "User")?.value == "kblinkd")
        #expect(
            activation.entry(section: "D-BUS Service", key: "Exec")?.value
                == unit.entry(section: "Service", key: "ExecStart")?.value)
        #expect(
            activation.entry(section: "D-BUS Service", key: "SystemdService")?.value
                == unit.entry(section: "Install", key: "Alias")?.value)
        #expect(
            activation.entry(section: "D-BUS Service", key: "Name")?.value
                == unit.entry(section: "Service", key: "BusName")?.value)
    }

    /// A directory holding a copy of the unit as `kblinkd.service`, its ExecStart pointed at a binary that exists
    /// (systemd-analyze insists on one), everything else kept.
    static func unitCopy() throws -> String {
        let directory = NSTemporaryDirectory() + "kblink-unit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: RepositoryFiles.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/kblinkd", with: "/usr/bin/true")
        try text.write(toFile: directory + "/kblinkd.service", atomically: false, encoding: .utf8)
        return directory
    }

    @Test(
        "systemd-analyze verify accepts the unit without warnings",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "systemd-analyze is not installed (Debian package systemd): only the key checks above ran"))
    func analyzeVerify() async throws {
        let directory = try Self.unitCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/kblinkd.service"

        let verify = try PolicyChildProcess(
            "/usr/bin/systemd-analyze", ["verify", copy], errorPath: directory + "/verify.err")
        _ = try #require(try await verify.readToEnd(), "systemd-analyze did not finish")
        let status = try await verify.exitStatus()
        let complaints = verify.errorOutput.split(separator: "\n").filter { $0.contains("kblinkd.service") }
        #expect(status == 0, "systemd-analyze verify failed: \(verify.errorOutput)")
        #expect(complaints == [])
    }

    @Test(
        "systemd-analyze security: the unit's exposure stays at or below 0.7",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "systemd-analyze is not installed (Debian package systemd)"))
    func securityExposure() async throws {
        let directory = try Self.unitCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/kblinkd.service"
        // --threshold takes tenths: the analysis fails when the exposure is above 0.7, today's figure. Lower it when
        // the unit is tightened; never raise it.
        let security = try PolicyChildProcess(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=7", copy],
            errorPath: directory + "/security.err")
        let report = try #require(try await security.readToEnd(), "systemd-analyze did not finish")
        let status = try await security.exitStatus()
        let overall = report.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        #expect(status == 0, "the unit's exposure rose above 0.7: \(overall) \(security.errorOutput)")
        #expect(overall.contains("kblinkd.service: 0."), "\(report)")
    }
}
