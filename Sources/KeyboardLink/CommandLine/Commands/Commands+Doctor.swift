import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkDoctor
import KeyboardLinkHostFix
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    static let doctor = Command(
        name: "doctor", summary: "Check what stands between this computer and a keyboard that just works",
        usageLine: """
            Usage: kblink doctor [DEVICE] [--root DIR] [--json]
                   kblink doctor --fix [--yes] [--root DIR]
                   kblink doctor --undo [--root DIR]
            """,
        details: """
            Checks kblinkd, BlueZ, the adapter, each paired keyboard (or DEVICE only) and the session, and shows
            one table: OK, NOTE, WARN or FAIL, what was found, why it matters and the exact fix. Exits 0 when no
            check fails, 1 otherwise. No check needs root. docs/doctor.md lists every check and its sources.
            --root DIR reads /sys, /proc, /etc, /dev, /usr and /var under DIR instead of / (laid out as the kernel
            and Debian lay them out), for tests and for looking at another system's files.
            --fix shows the fixes that are safe, reversible and local (hid_apple fnmode: a modprobe.d drop-in and
            the live value; a udev rule keeping the Bluetooth adapter awake; a udev rule giving the person at the
            seat VIA raw HID nodes), asks, and applies them through kblink-fix-host started by pkexec (polkit
            action org.kblink1.fix-host, an administrator's password); --yes does not ask. Fixes that are not safe
            to automate (main.conf, input.conf) are printed as edits. Nothing is restarted.
            --undo removes exactly what --fix wrote and puts the live values back.
            JSON: {checks [{id, subject, status, found, why, fix, automaticFix, sources}], counts {ok, note, warn,
            fail}}; id is stable (kblinkd.running, bluez.version, keyboard.hid-driver, ...), status is OK, NOTE,
            WARN or FAIL, subject is a keyboard's address or an adapter (hci0) where the check has one.
            """,
        flags: ["--fix", "--yes", "--undo"],
        options: ["--root"]
    ) { context in
        let positionals = context.arguments.positionals
        guard positionals.count <= 1 else {
            throw ParsedArguments.UsageError("doctor takes at most one DEVICE")
        }
        let fixing = context.arguments.has("--fix")
        let undoing = context.arguments.has("--undo")
        if fixing && undoing { throw ParsedArguments.UsageError("--fix and --undo do not go together") }
        if context.arguments.has("--yes") && !fixing { throw ParsedArguments.UsageError("--yes goes with --fix") }
        let rootPath = context.arguments.value("--root") ?? "/"
        guard rootPath.hasPrefix("/") else { throw ParsedArguments.UsageError("--root needs an absolute directory") }
        let environment = context.output.io.environment
        let facts: BusFacts
        if let connection = try? await BusConnection.connect(to: context.bus, label: "kblink.doctor") {
            facts = await BusFacts.gather(on: connection, userName: userName(environment))
            await connection.close()
        } else {
            facts = BusFacts(kblinkd: nil, blueZRunning: false, adapters: [], userName: userName(environment))
        }
        let doctor = Doctor(
            root: HostRoot(rootPath), bus: facts,
            environment: [
                "XDG_CURRENT_DESKTOP": environment("XDG_CURRENT_DESKTOP") ?? "",
                "XDG_SESSION_TYPE": environment("XDG_SESSION_TYPE") ?? "",
            ], device: positionals.first)
        let checks = doctor.checks()
        let output = context.output
        if undoing {
            return try runHelper(["undo"], root: rootPath, facts: facts, output: output)
        }
        guard fixing else { return try output.write(DoctorResult(checks: checks)) }
        return try fix(checks, root: rootPath, facts: facts, context: context)
    }

    /// The user kblink runs as: `USER`, else the password database's name of the uid.
    static func userName(_ environment: (String) -> String?) -> String? {
        if let user = environment("USER"), !user.isEmpty { return user }
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// `--fix`: shows what it would change, asks (unless `--yes`), checks polkit's action, runs the helper.
    static func fix(_ checks: [DoctorCheck], root: String, facts: BusFacts, context: CommandContext) throws
        -> ExitStatus
    {
        let output = context.output
        var fixes: [HostFix] = []
        for check in checks where check.status != .ok {
            if let fix = check.automaticFix, !fixes.contains(fix) { fixes.append(fix) }
        }
        let byHand = checks.filter { $0.status >= .warn && $0.automaticFix == nil && $0.fix != nil }
        if !byHand.isEmpty {
            output.line("To do by hand (not safe to automate):")
            for check in byHand {
                output.line("  \(check.id)\(check.subject.map { " (\($0))" } ?? ""): \(check.fix ?? "")")
            }
        }
        guard !fixes.isEmpty else {
            output.line("Nothing kblink doctor --fix can change by itself.")
            return checks.contains { $0.status == .fail } ? .failure : .success
        }
        output.line("kblink doctor --fix would, as root (through kblink-fix-host):")
        for fix in fixes { output.line("  - " + fix.summary) }
        if !context.arguments.has("--yes") {
            guard output.io.inputIsTerminal else {
                output.error("not asking without a terminal: run again with --yes to apply these changes")
                return .failure
            }
            output.io.writeOutput(Array("Apply these changes? [y/N] ".utf8))
            let answer = output.io.readLine()?.trimmingWhiteSpace().lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                output.line("Nothing changed.")
                return .failure
            }
        }
        return try runHelper(["apply"] + fixes.map(\.argument), root: root, facts: facts, output: output)
    }

    /// Runs `kblink-fix-host ARGUMENTS` through pkexec, once polkit has said it knows `org.kblink1.fix-host`; refuses
    /// (writing nothing) when it does not.
    static func runHelper(_ arguments: [String], root: String, facts: BusFacts, output: Output) throws -> ExitStatus {
        switch facts.permissions[BusFacts.fixHostAction] {
        case .allowed?, .afterAuthentication?:
            break
        case .unknown(let message)?:
            output.error(
                "polkit does not know \(BusFacts.fixHostAction) (\(message)): install kblinkd's polkit policy; "
                    + "nothing was changed")
            return .failure
        case .denied?:
            output.error("polkit refuses \(BusFacts.fixHostAction) to you: nothing was changed")
            return .failure
        case nil:
            output.error(
                "polkit is not on this bus: kblink doctor changes the system only through polkit's "
                    + "\(BusFacts.fixHostAction); nothing was changed")
            return .failure
        }
        let helper = helperPath()
        let command = [pkexec, helper] + (root == "/" ? [] : ["--root", root]) + arguments
        var pid: pid_t = 0
        let spawned = PolkitTextAgent.withCStrings(command) { argv in
            posix_spawn(&pid, pkexec, nil, nil, argv, environ)
        }
        guard spawned == 0 else {
            output.error(
                "could not start \(pkexec): \(String(cString: strerror(spawned))) (apt install pkexec); "
                    + "nothing was changed")
            return .failure
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            output.error("kblink-fix-host did not finish (exit \(code)): see its message above")
            return .failure
        }
        if arguments.first == "apply" {
            output.line("Done. 'kblink doctor --undo' takes these changes back.")
        }
        return .success
    }

    /// polkit's pkexec, by its path: never one found on the caller's `PATH`.
    static let pkexec = "/usr/bin/pkexec"

    /// Where kblink-fix-host is: `../libexec/kblink/kblink-fix-host` from kblink's own directory (the package's
    /// layout), else next to kblink (a build directory).
    static func helperPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/usr/libexec/kblink/kblink-fix-host" }
        let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let packaged = directory.dropLast().joined(separator: "/") + "/libexec/kblink/kblink-fix-host"
        if access(packaged, X_OK) == 0 { return packaged }
        return directory.joined(separator: "/") + "/kblink-fix-host"
    }
}

/// `kblink doctor`: every check, as one table or as JSON.
struct DoctorResult: CommandResult {
    struct Entry: Encodable, Sendable {
        let id: String
        let subject: String?
        let status: String
        let found: String
        let why: String
        let fix: String?
        let automaticFix: String?
        let sources: [String]
    }

    struct Counts: Encodable, Sendable {
        let ok: Int
        let note: Int
        let warn: Int
        let fail: Int
    }

    let checks: [Entry]
    let counts: Counts

    init(checks: [DoctorCheck]) {
        self.checks = checks.map {
            Entry(
                id: $0.id.rawValue, subject: $0.subject, status: $0.status.rawValue, found: $0.found, why: $0.why,
                fix: $0.fix, automaticFix: $0.automaticFix?.argument, sources: $0.sources)
        }
        func count(_ status: DoctorStatus) -> Int { checks.filter { $0.status == status }.count }
        counts = Counts(ok: count(.ok), note: count(.note), warn: count(.warn), fail: count(.fail))
    }

    var exitStatus: ExitStatus { counts.fail > 0 ? .failure : .success }

    func writeText(to output: Output) {
        let idWidth = (checks.map(\.id.count).max() ?? 0) + 1
        for check in checks {
            let label = check.status + String(repeating: " ", count: max(0, 4 - check.status.count))
            let status =
                switch check.status {
                case "OK": output.green(label)
                case "NOTE": output.dim(label)
                default: output.yellow(label)
                }
            let subject = check.subject.map { "\($0): " } ?? ""
            output.line("\(status)  \(check.id.padding(to: idWidth))\(subject)\(check.found)")
            guard check.status != "OK" else { continue }
            let indent = String(repeating: " ", count: idWidth + 6)
            if !check.why.isEmpty { output.line(indent + "why: " + check.why) }
            if let fix = check.fix { output.line(indent + "fix: " + fix) }
            for source in check.sources { output.line(indent + "source: " + source) }
        }
        output.line(
            "\(counts.ok) ok, \(counts.note) note(s), \(counts.warn) warning(s), \(counts.fail) failure(s)"
                + (checks.contains { $0.automaticFix != nil } ? "; 'kblink doctor --fix' applies the marked fixes" : "")
        )
    }
}
