import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkFirmware
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
        let output = context.output
        if output.json {
            output.json(
                .object([("address", .string(target.keyboard.address)), ("applyOnConnect", .bool(enabled))]))
            return .success
        }
        output.line("\(target.keyboard.alias): " + autoApplyText(enabled))
        return .success
    }

    /// One sentence saying what the setting does.
    static func autoApplyText(_ enabled: Bool) -> String {
        enabled
            ? "auto-apply is on: when the keyboard connects, kblinkd writes back the pushed keymap where it differs"
            : "auto-apply is off: kblinkd leaves the keyboard's keymap alone when it connects"
    }
}
