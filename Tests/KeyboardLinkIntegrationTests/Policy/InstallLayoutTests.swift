import Foundation
import KeyboardLinkTestSupport
import Testing

/// `make install` and `make uninstall` with `DESTDIR` and `PREFIX`, on stand-in binaries.
@Suite("make install")
struct InstallLayoutTests {
    /// A staging directory with fake `kblinkd` and `kblink` binaries and man pages in place of a release build.
    final class Stage {
        let directory = NSTemporaryDirectory() + "kblink-install-" + UUID().uuidString
        var root: String { directory + "/root" }
        var build: String { directory + "/build" }

        init(withBinaries: Bool = true) throws {
            try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
            if withBinaries {
                for binary in ["kblinkd", "kblink", "kblink-fix-host"] {
                    try "#!/bin/sh\necho \(binary)\n".write(
                        toFile: build + "/" + binary, atomically: false, encoding: .utf8)
                }
                try FileManager.default.createDirectory(atPath: build + "/man", withIntermediateDirectories: true)
                for page in ["kblinkd.8", "kblink.1"] {
                    try ".TH STAND-IN\n".write(toFile: build + "/man/" + page, atomically: false, encoding: .utf8)
                }
            }
        }

        /// Runs `make TARGET` in the repository with DESTDIR and the stand-in build directory.
        func make(_ target: String, _ variables: [String] = []) async throws -> (status: Int32, output: String) {
            let arguments =
                ["-s", "-C", RepositoryFiles.root, target, "DESTDIR=\(root)", "BUILD_DIR=\(build)"] + variables
            let process = try PolicyChildProcess("/usr/bin/make", arguments, errorPath: directory + "/make.err")
            let output = try #require(try await process.readToEnd(), "make \(target) did not finish")
            return (try await process.exitStatus(), output + process.errorOutput)
        }

        func contents(_ path: String) -> String? {
            try? String(contentsOfFile: root + path, encoding: .utf8)
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root + path) }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test("PREFIX=/usr installs where a distribution package would, with the paths rewritten")
    func prefixUsr() async throws {
        let stage = try Stage()
        let result = try await stage.make("install", ["PREFIX=/usr"])
        try #require(result.status == 0, "make install failed: \(result.output)")
        #expect(FileManager.default.isExecutableFile(atPath: stage.root + "/usr/bin/kblinkd"))
        #expect(FileManager.default.isExecutableFile(atPath: stage.root + "/usr/bin/kblink"))
        let unit = try #require(stage.contents("/usr/lib/systemd/system/kblinkd.service"))
        #expect(unit.contains("\nExecStart=/usr/bin/kblinkd --bus system\n"))
        #expect(!unit.contains("/usr/local"))
        let activation = try #require(stage.contents("/usr/share/dbus-1/system-services/org.kblink1.service"))
        #expect(activation.contains("\nExec=/usr/bin/kblinkd --bus system\n"))
        let policy = try String(contentsOfFile: RepositoryFiles.policy, encoding: .utf8)
        #expect(stage.contents("/usr/share/dbus-1/system.d/org.kblink1.conf") == policy)
        #expect(stage.exists("/etc/kblink/kblinkd.conf.example"))
        #expect(stage.exists("/usr/share/doc/kblink/systemd.md"))
        #expect(FileManager.default.isExecutableFile(atPath: stage.root + "/usr/libexec/kblink/kblink-fix-host"))
        // The policy names kblink-fix-host where it is installed (pkexec matches the path exactly).
        let actions = try #require(stage.contents("/usr/share/polkit-1/actions/org.kblink1.policy"))
        #expect(
            actions
                == (try String(contentsOfFile: RepositoryFiles.path("systemd/org.kblink1.policy"), encoding: .utf8))
                .replacingOccurrences(of: "/usr/local/libexec/kblink/", with: "/usr/libexec/kblink/"))
        #expect(actions.contains(">/usr/libexec/kblink/kblink-fix-host</annotate>"))
        #expect(stage.contents("/usr/lib/sysusers.d/kblinkd.conf")?.contains("\nu kblinkd ") == true)
        #expect(
            stage.contents("/usr/lib/tmpfiles.d/kblinkd.conf")?.contains("\nd /var/lib/kblink 0700 kblinkd kblinkd")
                == true)
        #expect(stage.exists("/usr/share/man/man8/kblinkd.8"))
        #expect(stage.exists("/usr/share/man/man1/kblink.1"))
        #expect(stage.exists("/usr/share/bash-completion/completions/kblink"))
        let rule = try #require(stage.contents("/usr/lib/udev/rules.d/70-kblink-via.rules"))
        #expect(rule.contains("PROGRAM==\"/usr/bin/kblinkd --check-hidraw "))
        #expect(!rule.contains("/usr/local"))
        let agent = try #require(stage.contents("/usr/lib/systemd/user/kblink-osk-agent.service"))
        #expect(agent.contains("\nExecStart=/usr/bin/kblink osk-agent\n"))
        #expect(!agent.contains("/usr/local"))
    }

    @Test("the default PREFIX is /usr/local, with the policy in /etc where dbus-daemon reads it; uninstall removes all")
    func defaultPrefix() async throws {
        let stage = try Stage()
        let installed = try await stage.make("install")
        try #require(installed.status == 0, "make install failed: \(installed.output)")
        let files = [
            "/usr/local/bin/kblinkd", "/usr/local/bin/kblink", "/usr/local/libexec/kblink/kblink-fix-host",
            "/usr/local/lib/systemd/system/kblinkd.service",
            "/usr/local/share/dbus-1/system-services/org.kblink1.service", "/etc/dbus-1/system.d/org.kblink1.conf",
            "/etc/kblink/kblinkd.conf.example", "/usr/local/share/doc/kblink/systemd.md",
            "/usr/share/polkit-1/actions/org.kblink1.policy", "/usr/local/lib/sysusers.d/kblinkd.conf",
            "/usr/local/lib/udev/rules.d/70-kblink-via.rules", "/usr/local/lib/tmpfiles.d/kblinkd.conf",
            "/usr/local/share/man/man8/kblinkd.8", "/usr/local/share/man/man1/kblink.1",
            "/usr/local/share/bash-completion/completions/kblink",
            "/usr/local/lib/systemd/user/kblink-osk-agent.service", "/usr/local/share/doc/kblink/desktop.md",
        ]
        for file in files { #expect(stage.exists(file), "\(file) was not installed") }
        #expect(
            stage.contents("/usr/local/lib/systemd/system/kblinkd.service")?.contains(
                "\nExecStart=/usr/local/bin/kblinkd --bus system\n") == true)

        let removed = try await stage.make("uninstall")
        try #require(removed.status == 0, "make uninstall failed: \(removed.output)")
        for file in files { #expect(!stage.exists(file), "\(file) was left behind") }
    }

    @Test("install without a build says to run make build first")
    func missingBuild() async throws {
        let stage = try Stage(withBinaries: false)
        let result = try await stage.make("install")
        #expect(result.status != 0)
        #expect(result.output.contains("run 'make build' first"))
        #expect(!stage.exists("/usr/local/bin"))
    }
}
