import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    /// `kblink keymap pull DEVICE`: reads the keyboard's keymap from its firmware into the draft, as one edit.
    static func pullKeymap(_ target: KeymapTarget, _ context: CommandContext) async throws -> ExitStatus {
        let report = try await withUnlockNotice(target, context) { try await target.keymap.pull() }
        let state = try await target.keymap.state()
        return try context.output.write(PullResult(report, state: state, keyboard: target.keyboard))
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

/// `kblink keymap pull`: what the pull read, and the draft after it.
struct PullResult: CommandResult {
    let ok = true
    let address: String
    let driver: String
    let changed: Int
    let bindings: Int
    let layers: Int
    let deviceLayers: Int
    let macros: Int
    let unknown: Int
    let dirty: Bool
    let canUndo: Bool
    let undoable: Bool
    let baseOrigin: String
    /// Text only: the keyboard's alias and the answer it is worded from.
    private let alias: String
    private let report: PullReport

    private enum CodingKeys: String, CodingKey {
        case ok, address, driver, changed, bindings, layers, deviceLayers, macros, unknown, dirty, canUndo, undoable
        case baseOrigin
    }

    init(_ report: PullReport, state: KeymapState, keyboard: KeyboardInfo) {
        address = keyboard.address
        driver = report.driver
        changed = report.changed
        bindings = report.bindings
        layers = report.layers
        deviceLayers = report.deviceLayers
        macros = report.macros
        unknown = report.unknown
        dirty = state.dirty
        canUndo = state.canUndo
        undoable = report.undoable
        baseOrigin = state.baseOrigin
        alias = keyboard.alias
        self.report = report
    }

    func writeText(to output: Output) {
        output.line(Commands.pullSummary(report, alias: alias))
    }
}
