import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    /// `kblink keymap push DEVICE [--dry-run] [--no-verify]`: writes the draft to the keyboard's firmware.
    static func pushKeymap(_ target: KeymapTarget, _ context: CommandContext) async throws -> ExitStatus {
        let arguments = context.arguments
        let output = context.output
        let dryRun = arguments.has("--dry-run")
        if arguments.has("--apply-on-connect") && arguments.has("--no-apply-on-connect") {
            throw ParsedArguments.UsageError("give --apply-on-connect or --no-apply-on-connect, not both")
        }
        let applyOnConnect: Bool? =
            arguments.has("--apply-on-connect") ? true : arguments.has("--no-apply-on-connect") ? false : nil
        let overwrite = arguments.has("--overwrite")
        let keepKeyboard = arguments.has("--keep-keyboard")
        if overwrite && keepKeyboard {
            throw ParsedArguments.UsageError(
                "give --overwrite (write the whole draft) or --keep-keyboard (keep the keyboard's binding where both "
                    + "changed a key), not both")
        }
        if dryRun && applyOnConnect != nil {
            throw ParsedArguments.UsageError("--apply-on-connect and --no-apply-on-connect do not go with --dry-run")
        }
        let progress: Task<Void, Never>?
        if output.isTerminal && !output.json && !dryRun {
            let signals = try await target.client.connection.subscribe(
                to: MatchRule(
                    sender: KBlink.service, path: target.keyboard.path, interface: KBlink.keymapInterface,
                    member: MemberName("PushProgress")))
            progress = Task {
                for await message in signals {
                    guard message.body.count == 2, case .uint32(let done) = message.body[0],
                        case .uint32(let total) = message.body[1]
                    else { continue }
                    guard total > 0 else {
                        // PushProgress(0, 0): kblinkd is reading the keyboard's keymap on first contact.
                        output.writeRaw("\rkblinkd is reading the keyboard's keymap first…")
                        continue
                    }
                    output.writeRaw(progressBar(done: Int(done), total: Int(total)))
                }
            }
        } else {
            progress = nil
        }
        // A locked ZMK keyboard: the daemon asks for the unlock key with a PairingPrompt and waits.
        let prompts = try await target.client.connection.subscribe(
            to: MatchRule(
                sender: KBlink.service, interface: KBlink.managerInterface,
                member: KBlinkContract.Manager.pairingPromptSignal.name))
        let path = target.keyboard.path
        let unlockNotice = Task {
            for await message in prompts {
                guard let signal = KBlinkContract.Manager.pairingPromptSignal.body(of: message),
                    signal.keyboard == path,
                    signal.prompt.kind == .unlock
                else { continue }
                output.writeError(
                    "\(target.keyboard.alias) is locked: \(PairingPromptKind.unlock.instruction(code: ""))")
            }
        }
        defer { unlockNotice.cancel() }
        let result: PushReport
        do {
            result = try await target.keymap.push(
                dryRun: dryRun, verify: !arguments.has("--no-verify"), applyOnConnect: applyOnConnect,
                overwrite: overwrite, keepKeyboard: keepKeyboard)
        } catch {
            progress?.cancel()
            if progress != nil { output.writeRaw("\n") }
            throw error
        }
        progress?.cancel()
        if progress != nil && result.written > 0 { output.writeRaw("\n") }
        let autoApply = try await target.keymap.applyOnConnect()
        return try output.write(
            PushResult(
                result, applyOnConnect: autoApply, announcingAutoApply: applyOnConnect != nil,
                alias: target.keyboard.alias))
    }

    /// `[#####     ] 12/40`, with a carriage return to redraw in place.
    static func progressBar(done: Int, total: Int) -> String {
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(done)/\(total)"
    }
}

/// `kblink keymap push`: what was written (or, for a dry run, would be), kept, in conflict, and what the firmware
/// cannot hold; it fails (exit 1) when there are problems or conflicts.
struct PushResult: CommandResult {
    let ok = true
    let dryRun: Bool
    let written: Int
    let macroSlots: Int
    let layersAdded: Int
    let layersRemoved: Int
    let layersRenamed: Int
    let applyOnConnect: Bool
    let verified: Bool
    let saved: Bool
    let driver: String
    let uneditedWrites: Int
    let kept: [PushReport.Difference]
    let conflicts: [PushReport.Difference]
    let changes: [PushReport.Change]
    let problems: [PushReport.Problem]
    /// Text only: whether the command line turned auto-apply on or off (then the text says what it is now), and
    /// the keyboard's alias.
    private let announcingAutoApply: Bool
    private let alias: String

    private enum CodingKeys: String, CodingKey {
        case ok, dryRun, written, macroSlots, layersAdded, layersRemoved, layersRenamed, applyOnConnect, verified
        case saved, driver, uneditedWrites
        case kept, conflicts, changes, problems
    }

    init(_ report: PushReport, applyOnConnect: Bool, announcingAutoApply: Bool, alias: String) {
        dryRun = report.dryRun
        written = report.written
        macroSlots = report.macroSlots
        layersAdded = report.layersAdded
        layersRemoved = report.layersRemoved
        layersRenamed = report.layersRenamed
        self.applyOnConnect = applyOnConnect
        verified = report.verified
        saved = report.saved
        driver = report.driver
        uneditedWrites = report.uneditedWrites
        kept = report.kept
        conflicts = report.conflicts
        changes = report.changes
        problems = report.problems
        self.announcingAutoApply = announcingAutoApply
        self.alias = alias
    }

    var exitStatus: ExitStatus { problems.isEmpty && conflicts.isEmpty ? .success : .failure }

    func writeText(to output: Output) {
        let name = alias
        if announcingAutoApply { output.line("\(name): " + Commands.autoApplyText(applyOnConnect)) }
        let macros = macroSlots > 0 ? " and \(macroSlots) macro slot(s)" : ""
        let layers = layerText(dryRun: true)
        if !problems.isEmpty {
            // Every problem at once, each with its key and layer; a real push would refuse them all.
            output.writeError(
                "kblink: the keyboard's firmware cannot hold \(problems.count) binding(s); a push would fail:")
            for problem in problems {
                output.writeError("  \(problem.key) on layer \(problem.layer): \(problem.action): \(problem.reason)")
            }
        }
        if !conflicts.isEmpty {
            // Only a dry run answers with conflicts; a push stops on them with org.kblink1.Error.Conflict.
            output.writeError(
                "kblink: \(conflicts.count) key(s) were changed both in the draft and on the keyboard; a push "
                    + "would stop (--keep-keyboard keeps the keyboard's, --overwrite writes the draft's):")
            for row in conflicts {
                output.writeError(
                    "  \(row.key) on layer \(row.layer): was \(row.base), draft \(row.draft), keyboard \(row.keyboard)")
            }
        }
        if !kept.isEmpty {
            output.line(
                "\(name): \(dryRun ? "would keep" : "kept") \(kept.count) binding(s) the keyboard changed "
                    + "by itself\(dryRun ? "" : " (now part of the base)"):")
            output.table(
                ["LAYER", "KEY", "WAS", "KEYBOARD"], kept.map { [String($0.layer), $0.key, $0.base, $0.keyboard] })
        }
        if uneditedWrites > 0 {
            output.line(
                "\(name): --overwrite \(dryRun ? "would change" : "changed") \(uneditedWrites) "
                    + "binding(s) the draft had not edited")
        }
        if changes.isEmpty && macroSlots == 0 && layersAdded == 0 && layersRemoved == 0 && layersRenamed == 0 {
            output.line("\(name): the keyboard already holds every edit; nothing to write")
            return
        }
        if dryRun {
            output.line("\(name): a push would \(layers)write \(changes.count) binding(s)\(macros):")
        } else {
            let checks = [verified ? "verified" : nil, saved ? "saved" : nil].compactMap { $0 }
            output.line(
                "\(name): \(layerText(dryRun: false))wrote \(written) binding(s)\(macros) over \(driver)"
                    + (checks.isEmpty ? "" : ", " + checks.joined(separator: " and ")))
        }
        if !changes.isEmpty {
            output.table(["LAYER", "KEY", "OLD", "NEW"], changes.map { [String($0.layer), $0.key, $0.old, $0.new] })
        }
    }

    /// `added 1 layer(s), removed 2 layer(s), named 1 layer(s) and ` (a dry run: `add ...`), empty when the push
    /// changes no layer.
    private func layerText(dryRun: Bool) -> String {
        let parts = [
            layersAdded > 0 ? "\(dryRun ? "add" : "added") \(layersAdded) layer(s)" : nil,
            layersRemoved > 0 ? "\(dryRun ? "remove" : "removed") \(layersRemoved) layer(s)" : nil,
            layersRenamed > 0 ? "\(dryRun ? "name" : "named") \(layersRenamed) layer(s)" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? "" : parts.joined(separator: ", ") + " and "
    }
}
