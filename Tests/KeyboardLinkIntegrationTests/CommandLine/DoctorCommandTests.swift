import Foundation
import KeyboardLink
import KeyboardLinkDoctor
import KeyboardLinkHostFix
import KeyboardLinkTestSupport
import Testing

/// `kblink doctor` against kblinkd-demo, and `kblink-fix-host` run unprivileged on fake roots.
@Suite("kblink doctor")
struct DoctorCommandTests {
    /// A fake root whose Bluetooth adapter (hci0, as the demo's) autosuspends and whose hid_apple has fnmode 1.
    static func autosuspendingRoot() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        let usb = "sys/devices/pci0000:00/0000:00:14.0/usb1/1-4"
        let files = FileStore()
        for directory in [usb + "/power", usb + "/1-4:1.0", "sys/class/bluetooth", "sys/module/hid_apple/parameters"] {
            try files.makeDirectory(root.path + "/" + directory)
        }
        try root.write("8087\n", to: usb + "/idVendor")
        try root.write("0029\n", to: usb + "/idProduct")
        try root.write("auto\n", to: usb + "/power/control")
        try root.write("1\n", to: "sys/module/hid_apple/parameters/fnmode")
        #expect(
            symlink(
                "../../devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0", root.path + "/sys/class/bluetooth/hci0")
                == 0)
        try files.makeDirectory(root.path + "/sys/bus/usb/devices")
        #expect(
            symlink("../../../devices/pci0000:00/0000:00:14.0/usb1/1-4", root.path + "/sys/bus/usb/devices/1-4") == 0)
        // The adapter's `device` link, as sysfs has it: hci0/device is its USB interface (here hci0 is the interface
        // directory itself, which resolves the same).
        #expect(symlink(".", root.path + "/\(usb)/1-4:1.0/device") == 0)
        // kblinkd installed as the package installs it: its VIA rule and the program the rule runs, which only their
        // owner can change.
        try files.makeDirectory(root.path + "/usr/lib/udev/rules.d")
        try files.makeDirectory(root.path + "/usr/bin")
        try root.write(
            "SUBSYSTEM==\"hidraw\", PROGRAM==\"/usr/bin/kblinkd --check-hidraw "
                + "$sys$devpath/device/report_descriptor\", GROUP=\"kblinkd\", MODE=\"0660\"\n",
            to: "usr/lib/udev/rules.d/" + HostFix.viaRuleName)
        try root.write("#!/bin/sh\n", to: "usr/bin/kblinkd")
        for path in ["", "/usr", "/usr/bin", "/usr/lib", "/usr/lib/udev", "/usr/lib/udev/rules.d"] {
            #expect(chmod(root.path + path, 0o755) == 0)
        }
        #expect(chmod(root.path + "/usr/bin/kblinkd", 0o755) == 0)
        #expect(chmod(root.path + "/usr/lib/udev/rules.d/" + HostFix.viaRuleName, 0o644) == 0)
        // A merged /usr, as Debian has it: the rule is found through the link /lib first.
        #expect(symlink("usr/lib", root.path + "/lib") == 0)
        return root
    }

    /// The autosuspend rule of the fake root's adapter.
    static let autosuspendRule = HostFix.autosuspendRule(vendor: "8087", product: "0029")

    /// Every file and link under `root`, with its bytes, sorted.
    static func contents(_ root: String) -> [String] {
        var found: [String] = []
        func walk(_ path: String) {
            var information = stat()
            guard lstat(path, &information) == 0 else { return }
            switch information.st_mode & S_IFMT {
            case S_IFDIR:
                for name in (try? FileStore().list(path)) ?? [] { walk(path + "/" + name) }
            case S_IFLNK:
                found.append(String(path.dropFirst(root.count)) + " -> link")
            default:
                let bytes = (try? FileStore().read(path)) ?? []
                found.append(String(path.dropFirst(root.count)) + ": " + String(decoding: bytes, as: UTF8.self))
            }
        }
        walk(root)
        return found.sorted()
    }

    @Test("doctor --json on the demo lists every check with an id, a status and a fix where one applies")
    func jsonListsEveryCheck() async throws {
        let root = try TemporaryDirectory()
        try await DemoDaemon.run { demo in
            let result = try await demo.kblink(["doctor", "--json", "--root", root.path])
            #expect(result.status == 0, "\(result.standardError)\n\(result.standardOutput)")
            let report = try #require(try DemoDaemon.json(result.standardOutput) as? [String: Any])
            let checks = try #require(report["checks"] as? [[String: Any]])
            let ids = Set(checks.compactMap { $0["id"] as? String })
            #expect(ids == Set(DoctorCheckID.all.map(\.rawValue)))
            for check in checks {
                let status = try #require(check["status"] as? String)
                #expect(["OK", "NOTE", "WARN", "FAIL"].contains(status))
                #expect(!((check["found"] as? String) ?? "").isEmpty)
                if status == "WARN" || status == "FAIL" { #expect(check["fix"] is String, "\(check)") }
            }
            // The demo's two keyboards each have every keyboard check, by address.
            let keyboardChecks = checks.filter { ($0["id"] as? String)?.hasPrefix("keyboard.") == true }
            #expect(Set(keyboardChecks.compactMap { $0["subject"] as? String }).count == 2)
            #expect(checks.contains { $0["id"] as? String == "kblinkd.running" && $0["status"] as? String == "OK" })
            let counts = try #require(report["counts"] as? [String: Int])
            #expect(counts["fail"] == 0)

            let text = try await demo.kblink(["doctor", "--root", root.path])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("kblinkd.running"))
            #expect(text.standardOutput.contains("0 failure(s)"))
        }
    }

    /// Opens every directory under `path` to every user (0755), as /sys and /etc are: the fake roots' directories
    /// are made 0700.
    static func openToEveryone(_ path: String) {
        var information = stat()
        guard lstat(path, &information) == 0, information.st_mode & S_IFMT == S_IFDIR else { return }
        #expect(chmod(path, 0o755) == 0, "chmod \(path)")
        for name in (try? FileStore().list(path)) ?? [] { openToEveryone(path + "/" + name) }
    }

    /// Each check of `kblink doctor --json`'s report, by id and subject: its status and what it found.
    static func checksByID(_ result: ProcessResult) throws -> [String: String] {
        let report = try #require(try DemoDaemon.json(result.standardOutput) as? [String: Any], "\(result)")
        let checks = try #require(report["checks"] as? [[String: Any]])
        return Dictionary(
            checks.map { check in
                (
                    "\(check["id"] as? String ?? "")" + ((check["subject"] as? String).map { " " + $0 } ?? ""),
                    "\(check["status"] ?? "") \(check["found"] ?? "")"
                )
            }, uniquingKeysWith: { first, _ in first })
    }

    @Test("no check needs root: kblink doctor run by another user finds what it finds for root")
    func runsWithoutRoot() async throws {
        try #require(getuid() == 0, "the test runs kblink as nobody with setpriv, which needs root")
        let root = try Self.autosuspendingRoot()
        Self.openToEveryone(root.path)
        try await DemoDaemon.run { demo in
            let arguments = ["doctor", "--json", "--root", root.path, "--bus", demo.address]
            let byRoot = try await KeymapCommandRunner.run(arguments)
            let byNobody = try await KeymapCommandRunner.run(
                arguments, launcher: ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            #expect(byNobody.status == byRoot.status, "\(byNobody.standardError)")
            #expect(byNobody.standardError.isEmpty, "\(byNobody.standardError)")
            let rootChecks = try Self.checksByID(byRoot)
            var nobodyChecks = try Self.checksByID(byNobody)
            #expect(Set(nobodyChecks.keys) == Set(rootChecks.keys))
            // The one check about the caller: which kblinkd actions it may run.
            let permissions = nobodyChecks.removeValue(forKey: "kblinkd.permissions")
            #expect(permissions?.isEmpty == false)
            for (check, outcome) in nobodyChecks.sorted(by: { $0.key < $1.key }) {
                #expect(outcome == rootChecks[check], "\(check)")
            }
            // The planted problem is seen by both.
            #expect(
                nobodyChecks.contains { $0.key.hasPrefix("adapter.autosuspend") && $0.value.hasPrefix("WARN") },
                "\(nobodyChecks)")
        }
    }

    @Test("doctor exits 1 when a check fails: no kblinkd on the bus")
    func failsWithoutKBlinkd() async throws {
        let root = try TemporaryDirectory()
        let bus = try await TestBus()
        let result = await InProcessKBlink.run(["doctor", "--json", "--root", root.path, "--bus", bus.address])
        #expect(result.status == 1, "\(result.standardError)")
        let report = try #require(try DemoDaemon.json(result.standardOutput) as? [String: Any])
        let checks = try #require(report["checks"] as? [[String: Any]])
        #expect(checks.contains { $0["id"] as? String == "kblinkd.running" && $0["status"] as? String == "FAIL" })
    }

    @Test("--fix and --undo refuse without polkit's org.kblink1.fix-host, and write nothing")
    func fixRefusesWithoutPolkit() async throws {
        let root = try Self.autosuspendingRoot()
        let before = Self.contents(root.path)
        try await DemoDaemon.run { demo in
            let shown = try await demo.kblink(["doctor", "--json", "--root", root.path])
            #expect(shown.standardOutput.contains("\"automaticFix\":\"adapter-autosuspend-off=8087:0029@1-4\""))
            let fix = try await demo.kblink(["doctor", "--fix", "--yes", "--root", root.path])
            #expect(fix.status == 1)
            #expect(fix.standardError.contains("org.kblink1.fix-host"), "\(fix.standardError)")
            #expect(fix.standardError.contains("nothing was changed"))
            #expect(fix.standardOutput.contains("keep the Bluetooth adapter 8087:0029 awake"))
            let undo = try await demo.kblink(["doctor", "--undo", "--root", root.path])
            #expect(undo.status == 1)
            #expect(undo.standardError.contains("org.kblink1.fix-host"))
        }
        #expect(Self.contents(root.path) == before)
    }

    @Test("--fix without --yes and without a terminal asks nothing and changes nothing")
    func fixWithoutTerminalDoesNotApply() async throws {
        let root = try Self.autosuspendingRoot()
        let before = Self.contents(root.path)
        try await DemoDaemon.run { demo in
            let fix = try await demo.kblink(["doctor", "--fix", "--root", root.path])
            #expect(fix.status == 1)
            #expect(fix.standardError.contains("--yes"))
        }
        #expect(Self.contents(root.path) == before)
    }

    static var helper: String { DaemonHarness.binary("kblink-fix-host") }

    /// Runs kblink-fix-host with `arguments` in an environment of its own: a suite run under sudo must not pass on
    /// `SUDO_UID`, for which the helper refuses `--root`.
    static func fixHost(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await runProcess(helper, arguments, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    @Test("kblink-fix-host applies each fix with kblink's header and a manifest, and undo takes back exactly that")
    func helperAppliesAndUndoes() async throws {
        let root = try Self.autosuspendingRoot()
        let before = Self.contents(root.path)
        let fixes = [
            "hid-apple-fnmode=2", "adapter-autosuspend-off=8087:0029@1-4", "via-hidraw-access",
        ]
        let applied = try await Self.fixHost(["--root", root.path, "apply"] + fixes)
        #expect(applied.status == 0, "\(applied.standardError)")
        let dropIn = try #require(try FileStore().read(root.path + HostFix.fnmodeDropIn))
        #expect(String(decoding: dropIn, as: UTF8.self) == HostFix.header + "options hid_apple fnmode=2\n")
        for rule in [Self.autosuspendRule, HostFix.viaAccessRule] {
            let text = String(decoding: try #require(try FileStore().read(root.path + rule)), as: UTF8.self)
            #expect(text.hasPrefix(HostFix.header))
        }
        let via = String(decoding: try #require(try FileStore().read(root.path + HostFix.viaAccessRule)), as: UTF8.self)
        #expect(via.contains("PROGRAM==\"/usr/bin/kblinkd --check-hidraw $sys$devpath/device/report_descriptor\""))
        let autosuspend = String(
            decoding: try #require(try FileStore().read(root.path + Self.autosuspendRule)), as: UTF8.self)
        #expect(autosuspend.contains("ATTR{idVendor}==\"8087\", ATTR{idProduct}==\"0029\""))
        #expect(try FileStore().read(root.path + HostFix.fnmodeParameter) == Array("2\n".utf8))
        #expect(
            try FileStore().read(root.path + "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/power/control")
                == Array("on\n".utf8))
        // Applying again changes nothing more, and undo still knows the first values.
        let again = try await Self.fixHost(["--root", root.path, "apply", "hid-apple-fnmode=2"])
        #expect(again.status == 0)

        let undone = try await Self.fixHost(["--root", root.path, "undo"])
        #expect(undone.status == 0, "\(undone.standardError)")
        #expect(undone.standardOutput.contains("removed \(HostFix.fnmodeDropIn)"))
        // What is left: the directories the fixes made (empty), and every file as it was.
        #expect(Self.contents(root.path) == before)
        let nothing = try await Self.fixHost(["--root", root.path, "undo"])
        #expect(nothing.standardOutput.contains("nothing to undo"))
    }

    @Test("kblink-fix-host leaves a file kblink did not write, and refuses malformed fixes, writing nothing")
    func helperRefuses() async throws {
        let root = try Self.autosuspendingRoot()
        try FileStore().makeDirectory(root.path + "/etc/modprobe.d")
        try root.write("options hid_apple fnmode=0\n", to: "etc/modprobe.d/kblink-hid-apple.conf")
        let before = Self.contents(root.path)
        let mine = try await Self.fixHost(["--root", root.path, "apply", "hid-apple-fnmode=2"])
        #expect(mine.status == 1)
        #expect(mine.standardError.contains("not written by kblink"))
        for malformed in [
            "hid-apple-fnmode=7", "adapter-autosuspend-off=8087:0029@../../etc", "adapter-autosuspend-off=80:0029@1-4",
            "via-hidraw-access=/usr/bin/kblinkd", "via-hidraw-access=/home/mallory/kblinkd",
            "adapter-autosuspend-off=8087:0029@1-\u{0D4E},", "adapter-autosuspend-off=8087:0029@\u{0663}-4",
            "format-disk=1",
        ] {
            let result = try await Self.fixHost(["--root", root.path, "apply", malformed])
            #expect(result.status == 1, "\(malformed)")
            #expect(result.standardError.contains("unknown fix"), "\(malformed): \(result.standardError)")
        }
        #expect(Self.contents(root.path) == before)
    }

    @Test("kblink-fix-host undoes nothing from a manifest holding a line no fix writes, and no --root under pkexec")
    func helperDistrustsItsManifest() async throws {
        let root = try Self.autosuspendingRoot()
        try FileStore().makeDirectory(root.path + "/var/lib/kblink-fix-host")
        try FileStore().makeDirectory(root.path + "/etc")
        try root.write("secret\n", to: "etc/shadow")
        for line in [
            "live /etc/shadow x", "file /etc/shadow", "live /sys/module/hid_apple/parameters/fnmode 1; reboot",
            "live /sys/bus/usb/devices/../../../etc/shadow/power/control on",
        ] {
            try root.write(
                HostFix.header + "file \(HostFix.fnmodeDropIn)\n\(line)\n", to: "var/lib/kblink-fix-host/manifest")
            let before = Self.contents(root.path)
            let undo = try await Self.fixHost(["--root", root.path, "undo"])
            #expect(undo.status == 1, "\(line)")
            #expect(undo.standardError.contains("does not write"), "\(line): \(undo.standardError)")
            #expect(Self.contents(root.path) == before)
        }
        for variable in ["PKEXEC_UID", "SUDO_UID", "DOAS_USER"] {
            let forAnotherUser = try await Self.fixHost(
                ["--root", root.path, "apply", "hid-apple-fnmode=2"], environment: [variable: "1000"])
            #expect(forAnotherUser.status == 2, "\(variable)")
            #expect(forAnotherUser.standardError.contains("not under pkexec"), "\(variable)")
        }
    }

    @Test("the VIA fix runs only the kblinkd of kblinkd's installed rule, and only one that root alone can change")
    func viaCheckerComesFromTheInstalledRule() async throws {
        // The administrator's copy of the rule (in /etc) wins over the packaged one.
        let overridden = try Self.autosuspendingRoot()
        try FileStore().makeDirectory(overridden.path + "/etc/udev/rules.d")
        try FileStore().makeDirectory(overridden.path + "/usr/local/bin")
        try overridden.write(
            "PROGRAM==\"/usr/local/bin/kblinkd --check-hidraw $sys$devpath/device/report_descriptor\"\n",
            to: "etc/udev/rules.d/" + HostFix.viaRuleName)
        try overridden.write("#!/bin/sh\n", to: "usr/local/bin/kblinkd")
        for path in ["/etc", "/etc/udev", "/etc/udev/rules.d", "/usr/local", "/usr/local/bin"] {
            #expect(chmod(overridden.path + path, 0o755) == 0)
        }
        #expect(chmod(overridden.path + "/etc/udev/rules.d/" + HostFix.viaRuleName, 0o644) == 0)
        let applied = try await Self.fixHost(["--root", overridden.path, "apply", "via-hidraw-access"])
        #expect(applied.status == 0, "\(applied.standardError)")
        let rule = try #require(try FileStore().read(overridden.path + HostFix.viaAccessRule))
        #expect(String(decoding: rule, as: UTF8.self).contains("PROGRAM==\"/usr/local/bin/kblinkd --check-hidraw"))

        // Each unsafe installation: the fix refuses, says why, and writes nothing.
        let unsafe: [(String, String, (TemporaryDirectory) throws -> Void)] = [
            (
                "no rule", "is not installed",
                { root in
                    #expect(unlink(root.path + "/usr/lib/udev/rules.d/" + HostFix.viaRuleName) == 0)
                }
            ),
            (
                "a program not named kblinkd", "runs no program named kblinkd",
                { root in
                    try root.write(
                        "PROGRAM==\"/tmp/x --check-hidraw\"\n", to: "usr/lib/udev/rules.d/" + HostFix.viaRuleName)
                }
            ),
            (
                "a program others may write", "can be changed by someone other than root",
                { root in
                    #expect(chmod(root.path + "/usr/bin/kblinkd", 0o777) == 0)
                }
            ),
            (
                "a directory others may write", "can be changed by someone other than root",
                { root in
                    #expect(chmod(root.path + "/usr/bin", 0o777) == 0)
                }
            ),
            (
                "a link to a program in a folder others may write", "can be changed by someone other than root",
                { root in
                    try FileStore().makeDirectory(root.path + "/home/mallory")
                    #expect(chmod(root.path + "/home/mallory", 0o777) == 0)
                    try root.write("#!/bin/sh\n", to: "home/mallory/kblinkd")
                    #expect(unlink(root.path + "/usr/bin/kblinkd") == 0)
                    #expect(symlink(root.path + "/home/mallory/kblinkd", root.path + "/usr/bin/kblinkd") == 0)
                }
            ),
            (
                "a folder instead of the program", "is not a regular file",
                { root in
                    #expect(unlink(root.path + "/usr/bin/kblinkd") == 0)
                    try FileStore().makeDirectory(root.path + "/usr/bin/kblinkd")
                }
            ),
            ("no program", "No such file", { root in #expect(unlink(root.path + "/usr/bin/kblinkd") == 0) }),
        ]
        for (name, reason, plant) in unsafe {
            let root = try Self.autosuspendingRoot()
            try plant(root)
            let before = Self.contents(root.path)
            let refused = try await Self.fixHost(["--root", root.path, "apply", "via-hidraw-access"])
            #expect(refused.status == 1, "\(name)")
            #expect(refused.standardError.contains(reason), "\(name): \(refused.standardError)")
            #expect(Self.contents(root.path) == before, "\(name)")
        }
    }

    @Test("the autosuspend fix writes the live value only to a device with the rule's vendor and product")
    func autosuspendChecksTheDevice() async throws {
        let root = try Self.autosuspendingRoot()
        let before = Self.contents(root.path)
        let other = try await Self.fixHost(["--root", root.path, "apply", "adapter-autosuspend-off=046d:c52b@1-4"])
        #expect(other.status == 1)
        #expect(other.standardError.contains("is 8087:0029, not 046d:c52b"), "\(other.standardError)")
        #expect(Self.contents(root.path) == before)
    }

    @Test("each adapter gets a rule of its own, and undo removes both")
    func twoAdapters() async throws {
        let root = try Self.autosuspendingRoot()
        let before = Self.contents(root.path)
        let first = try await Self.fixHost(["--root", root.path, "apply", "adapter-autosuspend-off=8087:0029@1-4"])
        #expect(first.status == 0, "\(first.standardError)")
        // A second adapter that is not plugged in now: its rule is written, its live value waits for it.
        let second = try await Self.fixHost(["--root", root.path, "apply", "adapter-autosuspend-off=0a12:0001@2-1"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("is not there now"))
        for rule in [Self.autosuspendRule, HostFix.autosuspendRule(vendor: "0a12", product: "0001")] {
            #expect(try FileStore().read(root.path + rule) != nil, "\(rule)")
        }
        let undone = try await Self.fixHost(["--root", root.path, "undo"])
        #expect(undone.status == 0, "\(undone.standardError)")
        #expect(Self.contents(root.path) == before)
    }

    @Test("a manifest that cannot be written stops the fix before it changes anything")
    func manifestFirst() async throws {
        let root = try Self.autosuspendingRoot()
        // /var/lib/kblink-fix-host is a file here, so the manifest cannot be written under it.
        try FileStore().makeDirectory(root.path + "/var/lib")
        try root.write("in the way\n", to: "var/lib/kblink-fix-host")
        let before = Self.contents(root.path)
        let refused = try await Self.fixHost([
            "--root", root.path, "apply", "hid-apple-fnmode=2", "adapter-autosuspend-off=8087:0029@1-4",
        ])
        #expect(refused.status == 1)
        #expect(Self.contents(root.path) == before)
    }
}
