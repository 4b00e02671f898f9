/// Who may call a method of the `org.kblink1` API. kblinkd asks before the method's handler runs, so a refused call
/// changes nothing (docs/dbus-api.md, "Authorization").
public enum KBlinkAccess: Sendable, Equatable, CustomStringConvertible {
    /// Everyone: the method changes nothing and answers nothing secret.
    case anyone
    /// Callers polkit allows this action (root without asking; without polkit, root and the configured group).
    case requires(PolkitAction)
    /// Callers polkit allows this action on the keyboard the first argument names (`device`: an address or a known
    /// keyboard's name, resolved by ``KeyboardMatcher``): polkit is told that keyboard's object and address, as for a
    /// call made on the keyboard's own object, so a rule that allows one keyboard allows this call for it alone.
    case requiresForKeyboard(PolkitAction)

    /// The action needed, nil for ``anyone``.
    public var action: PolkitAction? {
        switch self {
        case .anyone: nil
        case .requires(let action), .requiresForKeyboard(let action): action
        }
    }

    /// `anyone` or the action's id.
    public var description: String { action?.id ?? "anyone" }
}
