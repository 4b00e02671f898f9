import KBlinkAPI
import KeyboardLinkKeymap

extension ProfileImportReport {
    /// The answer of an import that changed `summary`; each macro's text is ``MacroText/withheld`` unless
    /// `revealingMacroText`.
    init(_ summary: ProfileImportSummary, revealingMacroText: Bool) {
        func text(_ macro: Macro?) -> String {
            let text = macro?.description ?? ""
            return revealingMacroText ? text : MacroText.withholding(text)
        }
        self.init(
            replaced: summary.replaced, cleared: summary.cleared,
            changes: summary.bindings.map {
                Change(layer: $0.layer, key: $0.key.rawValue, old: $0.old.description, new: $0.new.description)
            },
            macros: summary.macros.map { MacroChange(name: $0.name.rawValue, old: text($0.old), new: text($0.new)) })
    }
}
