/// How a macro's text is shown to a caller who may not read it (`org.kblink1.read-macros`): the answers open to
/// everyone (`Diff`) and the `ImportProfile` answer say that a macro is there and changed, not what it types.
public enum MacroText {
    /// What stands in for a macro's text. Not valid macro syntax, so it cannot be mistaken for a definition.
    public static let withheld = "(withheld)"

    /// `text` withheld: ``withheld`` for a text, empty stays empty (a macro added or removed shows which side is
    /// empty).
    public static func withholding(_ text: String) -> String {
        text.isEmpty ? "" : withheld
    }
}
