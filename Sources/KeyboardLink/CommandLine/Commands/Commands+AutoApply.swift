import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    /// `on` or `off` (also `true`/`false`, `yes`/`no`, `1`/`0`); nil when not given.
    /// - Throws: `ParsedArguments.UsageError` for anything else.
    static func autoApplyValue(_ text: String?) throws -> Bool? {
        guard let text else { return nil }
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw ParsedArguments.UsageError("auto-apply takes on or off; got '\(text)'")
        }
    }

    /// `kblink keymap auto-apply DEVICE [on|off]`: shows or sets the `ApplyOnConnect` property.
    static func showOrSetAutoApply(_ target: KeymapTarget, _ context: CommandContext, _ wanted: Bool?) async throws
        -> ExitStatus
    {
        if let wanted { try await target.keymap.setApplyOnConnect(wanted) }
        let enabled = try await target.keymap.applyOnConnect()
        return try context.output.write(
            AutoApplyResult(address: target.keyboard.address, applyOnConnect: enabled, alias: target.keyboard.alias))
    }

    /// One sentence saying what the setting does.
    static func autoApplyText(_ enabled: Bool) -> String {
        enabled
            ? "auto-apply is on: when the keyboard connects, kblinkd writes back the pushed keymap where it differs"
            : "auto-apply is off: kblinkd leaves the keyboard's keymap alone when it connects"
    }
}

/// `kblink keymap auto-apply`: the keyboard and whether kblinkd writes its keymap back when it connects.
struct AutoApplyResult: CommandResult {
    let address: String
    let applyOnConnect: Bool
    /// The keyboard's alias, for the text.
    let alias: String

    private enum CodingKeys: String, CodingKey { case address, applyOnConnect }

    func writeText(to output: Output) {
        output.line("\(alias): " + Commands.autoApplyText(applyOnConnect))
    }
}
