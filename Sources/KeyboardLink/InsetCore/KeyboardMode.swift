/// What the keyboard is doing, as rule 3 of layout-core.md classifies it.
package enum KeyboardMode: String, CaseIterable, Equatable, Hashable, Sendable {
    /// No keyboard on the screen.
    case hidden
    /// Attached to the bottom of the screen.
    case docked
    /// Undocked, split or floating: somewhere above the bottom edge, or placed by the system (zero frame).
    case floating
}
