import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    /// `kblink keymap pull DEVICE`: reads the keyboard's keymap from its firmware into the draft, as one edit.
    static func pullKeymap(_ target: KeymapTarget, _ context: CommandContext) async throws -> ExitStatus {
        let output = context.output
        // A locked ZMK keyboard: the daemon asks for the unlock key with a PairingPrompt and waits.
        let prompts = try await target.client.connection.subscribe(
            to: MatchRule(
                sender: KBlink.service, interface: KBlink.managerInterface,
                member: KBlinkContract.Manager.pairingPromptSignal.name))
        let path = target.keyboard.path
        let alias = target.keyboard.alias
        let unlockNotice = Task {
            for await message in prompts {
                guard let signal = KBlinkContract.Manager.pairingPromptSignal.body(of: message),
                    signal.keyboard == path,
                    signal.prompt.kind == .unlock
                else { continue }
                output.writeError("\(alias) is locked: \(PairingPromptKind.unlock.instruction(code: ""))")
            }
        }
        defer { unlockNotice.cancel() }
        let result = try await target.keymap.pull()
        let state = try await target.keymap.state()
        if output.json {
            output.json(
                .object([
                    ("ok", .bool(true)), ("address", .string(target.keyboard.address)),
                    ("driver", .string(result.driver)), ("changed", .integer(Int64(result.changed))),
                    ("bindings", .integer(Int64(result.bindings))), ("layers", .integer(Int64(result.layers))),
                    ("deviceLayers", .integer(Int64(result.deviceLayers))),
                    ("macros", .integer(Int64(result.macros))), ("unknown", .integer(Int64(result.unknown))),
                    ("dirty", .bool(state.dirty)), ("canUndo", .bool(state.canUndo)),
                    ("undoable", .bool(result.undoable)), ("baseOrigin", .string(state.baseOrigin)),
                ]))
            return .success
        }
        output.line(pullSummary(result, alias: alias))
        return .success
    }

    /// `pulled 98 bindings on 4 layers from VGN 98Pro: 12 differed from the draft; ...`.
    static func pullSummary(_ result: PullReport, alias: String) -> String {
        var text =
            "pulled \(result.bindings) binding(s) on \(result.layers) layer(s) from \(alias) over \(result.driver): "
        if result.changed == 0 {
            text += "the draft already held them, nothing changed"
        } else {
            text += "\(result.changed) differed from the draft"
            text +=
                result.undoable
                ? "; it is the base now, and 'kblink keymap undo' brings the draft's edits back on it"
                : "; it is the base now"
        }
        if result.macros > 0 { text += "; \(result.macros) macro(s) played" }
        if result.unknown > 0 {
            text += "; \(result.unknown) binding(s) kblink cannot express were pulled as cleared"
        }
        if result.deviceLayers > result.layers {
            text +=
                "; the keyboard's layers above \(result.layers - 1) were left out (the profile has \(result.layers))"
        } else if result.deviceLayers < result.layers {
            text +=
                "; the profile's layers above \(result.deviceLayers - 1) were cleared (the keyboard has "
                + "\(result.deviceLayers))"
        }
        return text
    }
}
