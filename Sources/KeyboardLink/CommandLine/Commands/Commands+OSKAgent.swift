import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkDesktop
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    static let oskAgent = Command(
        name: "osk-agent", summary: "Put the desktop's on-screen keyboard away while a hardware keyboard is in use",
        usageLine:
            "Usage: kblink osk-agent [--status] [--dry-run] [--session-bus session|ADDRESS] [--no-gsettings]\n"
            + "                        [--no-squeekboard] [--no-kwin] [--json]",
        details: """
            Runs in the user's session (systemd user unit kblink-osk-agent.service) and follows kblinkd's
            HardwareKeyboardAttached. On attach: GSettings org.gnome.desktop.a11y.applications
            screen-keyboard-enabled set false when it is true (squeekboard, Phosh, GNOME), sm.puri.OSK0.SetVisible(false)
            (squeekboard), KWin's virtual keyboard active set false (never enabled). On detach (after kblinkd's grace
            period) the key gets back the value it had, unless you changed it by hand meanwhile.
            --status says what it finds (kblinkd, each part and why, what the agent did) and exits.
            --dry-run prints what it would do and changes nothing.
            --no-gsettings, --no-squeekboard, --no-kwin turn a part off.
            The state file is $XDG_STATE_HOME/kblink/osk-agent.json (~/.local/state/kblink/osk-agent.json).
            JSON (--status): {kblinkdReachable, attached, reasons [{source, id, name, counts, reason}],
            currentDesktop, parts [{name, active, reason}], agent {applied, previousScreenKeyboard}}.
            """,
        flags: ["--status", "--dry-run", "--no-gsettings", "--no-squeekboard", "--no-kwin"],
        options: ["--session-bus"]
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let environment = context.output.io.environment
        let paths = OSKAgentConfiguration.paths(environment: environment)
        guard let statePath = paths.statePath else {
            throw ParsedArguments.UsageError(
                "neither XDG_STATE_HOME nor HOME is set: the agent has nowhere to keep its state")
        }
        let sessionBus: BusAddress
        do {
            sessionBus = try BusAddress(parsing: context.arguments.value("--session-bus") ?? "session")
        } catch let error as DBusError {
            throw ParsedArguments.UsageError(error.message)
        }
        var configuration = OSKAgentConfiguration(
            kblinkBus: context.bus, sessionBus: sessionBus, statePath: statePath,
            dconfDatabasePath: paths.dconfDatabasePath, schemaDirectories: paths.schemaDirectories,
            currentDesktop: environment("XDG_CURRENT_DESKTOP"))
        configuration.dryRun = context.arguments.has("--dry-run")
        configuration.usesGSettings = !context.arguments.has("--no-gsettings")
        configuration.usesOSK0 = !context.arguments.has("--no-squeekboard")
        configuration.usesKWin = !context.arguments.has("--no-kwin")
        let output = context.output

        if context.arguments.has("--status") {
            let status = await OSKDesktop.inspect(configuration)
            if output.json {
                output.json(Self.statusJSON(status))
            } else {
                for line in status.lines { output.line(line) }
            }
            return .success
        }
        let agent = OSKAgent(configuration: configuration) { line in output.line("osk-agent: " + line) }
        output.line("osk-agent: following kblinkd" + (configuration.dryRun ? " (dry run: nothing is changed)" : ""))
        _ = try await untilInterrupted(output.io) { try await agent.run() }
        return .success
    }

    static func statusJSON(_ status: OSKDesktop) -> JSONValue {
        .object([
            ("kblinkdReachable", .bool(status.kblinkdReachable)),
            ("attached", .bool(status.attached)),
            (
                "reasons",
                .array(
                    status.reasons.map {
                        .object([
                            ("source", .string($0.source.rawValue)), ("id", .string($0.id)), ("name", .string($0.name)),
                            ("counts", .bool($0.counts)), ("reason", .string($0.reason)),
                        ])
                    })
            ),
            ("currentDesktop", status.currentDesktop.map(JSONValue.string) ?? .null),
            (
                "parts",
                .array(
                    status.parts.map {
                        .object([
                            ("name", .string($0.name)), ("active", .bool($0.active)), ("reason", .string($0.reason)),
                        ])
                    })
            ),
            (
                "agent",
                .object([
                    ("applied", status.state.applied.map(JSONValue.bool) ?? .null),
                    (
                        "previousScreenKeyboard",
                        status.state.previousScreenKeyboard.map { .string($0.description) } ?? .null
                    ),
                ])
            ),
        ])
    }
}
