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
        if output.json {
            output.json(
                .object([
                    ("ok", .bool(true)), ("dryRun", .bool(result.dryRun)), ("written", .integer(Int64(result.written))),
                    ("macroSlots", .integer(Int64(result.macroSlots))),
                    ("layersAdded", .integer(Int64(result.layersAdded))),
                    ("applyOnConnect", .bool(autoApply)),
                    ("verified", .bool(result.verified)), ("saved", .bool(result.saved)),
                    ("driver", .string(result.driver)),
                    ("uneditedWrites", .integer(Int64(result.uneditedWrites))),
                    ("kept", .array(result.kept.map(differenceJSON))),
                    ("conflicts", .array(result.conflicts.map(differenceJSON))),
                    (
                        "changes",
                        .array(
                            result.changes.map {
                                .object([
                                    ("layer", .integer(Int64($0.layer))), ("key", .string($0.key)),
                                    ("old", .string($0.old)), ("new", .string($0.new)),
                                ])
                            })
                    ),
                    (
                        "problems",
                        .array(
                            result.problems.map {
                                .object([
                                    ("layer", .integer(Int64($0.layer))), ("key", .string($0.key)),
                                    ("action", .string($0.action)), ("reason", .string($0.reason)),
                                ])
                            })
                    ),
                ]))
            return result.problems.isEmpty && result.conflicts.isEmpty ? .success : .failure
        }
        let name = target.keyboard.alias
        if applyOnConnect != nil { output.line("\(name): " + autoApplyText(autoApply)) }
        let macros = result.macroSlots > 0 ? " and \(result.macroSlots) macro slot(s)" : ""
        let layers = result.layersAdded > 0 ? "add \(result.layersAdded) layer(s) and " : ""
        if !result.problems.isEmpty {
            // Every problem at once, each with its key and layer; a real push would refuse them all.
            output.writeError(
                "kblink: the keyboard's firmware cannot hold \(result.problems.count) binding(s); a push would fail:")
            for problem in result.problems {
                output.writeError("  \(problem.key) on layer \(problem.layer): \(problem.action): \(problem.reason)")
            }
        }
        if !result.conflicts.isEmpty {
            // Only a dry run answers with conflicts; a push stops on them with org.kblink1.Error.Conflict.
            output.writeError(
                "kblink: \(result.conflicts.count) key(s) were changed both in the draft and on the keyboard; a push "
                    + "would stop (--keep-keyboard keeps the keyboard's, --overwrite writes the draft's):")
            for row in result.conflicts {
                output.writeError(
                    "  \(row.key) on layer \(row.layer): was \(row.base), draft \(row.draft), keyboard \(row.keyboard)")
            }
        }
        if !result.kept.isEmpty {
            output.line(
                "\(name): \(result.dryRun ? "would keep" : "kept") \(result.kept.count) binding(s) the keyboard changed "
                    + "by itself\(result.dryRun ? "" : " (now part of the base)"):")
            output.table(
                ["LAYER", "KEY", "WAS", "KEYBOARD"],
                result.kept.map { [String($0.layer), $0.key, $0.base, $0.keyboard] })
        }
        if result.uneditedWrites > 0 {
            output.line(
                "\(name): --overwrite \(result.dryRun ? "would change" : "changed") \(result.uneditedWrites) "
                    + "binding(s) the draft had not edited")
        }
        let failed = !result.problems.isEmpty || !result.conflicts.isEmpty
        if result.changes.isEmpty && result.macroSlots == 0 && result.layersAdded == 0 {
            output.line("\(name): the keyboard already holds every edit; nothing to write")
            return failed ? .failure : .success
        }
        if result.dryRun {
            output.line("\(name): a push would \(layers)write \(result.changes.count) binding(s)\(macros):")
        } else {
            let checks = [result.verified ? "verified" : nil, result.saved ? "saved" : nil].compactMap { $0 }
            output.line(
                "\(name): \(result.layersAdded > 0 ? "added \(result.layersAdded) layer(s) and " : "")"
                    + "wrote \(result.written) binding(s)\(macros) over \(result.driver)"
                    + (checks.isEmpty ? "" : ", " + checks.joined(separator: " and ")))
        }
        if !result.changes.isEmpty {
            output.table(
                ["LAYER", "KEY", "OLD", "NEW"], result.changes.map { [String($0.layer), $0.key, $0.old, $0.new] })
        }
        return failed ? .failure : .success
    }

    /// `{layer, key, base, draft, keyboard}`.
    static func differenceJSON(_ row: PushReport.Difference) -> JSONValue {
        .object([
            ("layer", .integer(Int64(row.layer))), ("key", .string(row.key)), ("base", .string(row.base)),
            ("draft", .string(row.draft)), ("keyboard", .string(row.keyboard)),
        ])
    }

    /// `[#####     ] 12/40`, with a carriage return to redraw in place.
    static func progressBar(done: Int, total: Int) -> String {
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(done)/\(total)"
    }
}
