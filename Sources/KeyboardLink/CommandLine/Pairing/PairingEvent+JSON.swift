import KBlinkAPI
import KeyboardLinkClient

extension PairingPromptRelay {
    /// The `kblink pair --json` line for a prompt (keys documented in docs/pairing.md).
    package func json(for target: PairingTarget) -> JSONValue {
        .object([
            ("event", .string("prompt")),
            ("keyboard", .string(target.keyboard.rawValue)),
            ("address", .string(target.address.description)),
            ("kind", .string(kind.rawValue)),
            ("code", .string(code)),
            ("entered", .integer(Int64(entered))),
        ])
    }
}

extension PairingResult {
    /// The `kblink pair --json` line for the end: the outcome and the keyboard's state after it.
    package func json(for target: PairingTarget, paired: Bool, trusted: Bool, connected: Bool) -> JSONValue {
        .object([
            ("event", .string("finished")),
            ("keyboard", .string(keyboard.rawValue)),
            ("address", .string(target.address.description)),
            ("ok", .bool(ok && paired && trusted && connected)),
            ("error", .string(error?.code.errorName.rawValue ?? "")),
            ("message", .string(error?.message ?? "\(target.name) is paired, trusted and connected")),
            ("paired", .bool(paired)),
            ("trusted", .bool(trusted)),
            ("connected", .bool(connected)),
        ])
    }
}
