import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkSupport

extension Commands {
    /// `kblink keymap physical-layout list DEVICE` and `... set DEVICE INDEX [--force]`: the physical layouts of a
    /// ZMK Studio keyboard, and switching the active one (the keymap is read again afterwards).
    static func physicalLayout(_ context: CommandContext, _ values: [String]) async throws -> ExitStatus {
        let verb = values[0]
        let force = context.arguments.has("--force")
        let index: UInt32?
        switch verb {
        case "list":
            if values.count > 2 { throw ParsedArguments.UsageError("unexpected argument '\(values[2])'") }
            if force { throw ParsedArguments.UsageError("--force is for 'keymap physical-layout set'") }
            index = nil
        case "set":
            guard values.count > 2 else { throw ParsedArguments.UsageError("missing INDEX") }
            // ZMK numbers its physical layouts with one byte.
            guard let number = UInt8(values[2]) else {
                throw ParsedArguments.UsageError(
                    "INDEX is a physical layout's number from 0 to 255 ('list' shows them); got '\(values[2])'")
            }
            index = UInt32(number)
        default:
            throw ParsedArguments.UsageError("'keymap physical-layout' takes list or set, not '\(verb)'")
        }
        return try await KeymapTarget.with(context, device: values[1]) { target in
            guard let index else {
                let layouts = try await withUnlockNotice(target, context) { try await target.keymap.physicalLayouts() }
                return try context.output.write(
                    PhysicalLayoutsResult(address: target.keyboard.address, alias: target.keyboard.alias, layouts))
            }
            let report = try await withUnlockNotice(target, context) {
                try await target.keymap.setPhysicalLayout(index, force: force)
            }
            let layouts = try await target.keymap.physicalLayouts()
            let name = layouts.indices.contains(Int(index)) ? layouts[Int(index)].name : ""
            let state = try await target.keymap.state()
            return try context.output.write(
                PhysicalLayoutSwitchResult(
                    index: Int(index), name: name,
                    pull: PullResult(report, state: state, keyboard: target.keyboard)))
        }
    }

    /// Runs `body` while telling the user, when kblinkd asks for it, to unlock the keyboard (a locked ZMK keyboard:
    /// the daemon asks for the unlock key with a PairingPrompt and waits).
    static func withUnlockNotice<Value: Sendable>(
        _ target: KeymapTarget, _ context: CommandContext, _ body: () async throws -> Value
    ) async throws -> Value {
        let output = context.output
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
        return try await body()
    }
}

/// `kblink keymap physical-layout list`: the keyboard's physical layouts, the active one marked.
struct PhysicalLayoutsResult: CommandResult {
    /// One layout, numbered as `set` takes it.
    struct Layout: Encodable, Sendable {
        let index: Int
        let name: String
        let keys: Int
        let active: Bool
    }

    let address: String
    let layouts: [Layout]
    /// Text only: the keyboard's alias.
    private let alias: String

    private enum CodingKeys: String, CodingKey {
        case address, layouts
    }

    init(address: String, alias: String, _ entries: [PhysicalLayoutEntry]) {
        self.address = address
        self.alias = alias
        layouts = entries.enumerated().map { index, entry in
            Layout(index: index, name: entry.name, keys: Int(entry.keys), active: entry.active)
        }
    }

    func writeText(to output: Output) {
        output.line("\(alias): \(layouts.count) physical layout(s)")
        output.table(
            ["INDEX", "NAME", "KEYS", "ACTIVE"],
            layouts.map {
                [String($0.index), $0.name.escapingTerminalControls, String($0.keys), $0.active ? "yes" : ""]
            })
    }
}

/// `kblink keymap physical-layout set`: the layout switched to, and the keymap read on its key positions.
struct PhysicalLayoutSwitchResult: CommandResult {
    let ok = true
    let index: Int
    let name: String
    let pull: PullResult

    private enum CodingKeys: String, CodingKey {
        case ok, index, name, pull
    }

    func writeText(to output: Output) {
        output.line(
            "switched to physical layout \(index)\(name.isEmpty ? "" : " '\(name.escapingTerminalControls)'") and saved it"
        )
        pull.writeText(to: output)
    }
}
