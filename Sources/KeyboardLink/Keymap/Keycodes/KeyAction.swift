/// What a key does: the one canonical form behind every spelling (QMK, ZMK, evdev) and every encoding
/// (VIA 16-bit keycodes, ZMK behaviour parameters).
///
/// Parse with `KeyAction(parsing:)`; `description` prints the QMK spelling (`KC_A`, `LSFT(KC_1)`, `MO(1)`).
package enum KeyAction: Hashable, Sendable {
    /// Does nothing (`KC_NO`, `&none`).
    case none
    /// Falls through to the next active layer below (`KC_TRNS`, `&trans`).
    case transparent
    /// Sends a key, with modifiers held (`KC_A`, `LSFT(KC_1)`, `&kp LS(N1)`).
    case key(KeyPress)
    /// Activates a layer while held (`MO(n)`, `&mo n`).
    case momentaryLayer(Int)
    /// Toggles a layer on and off (`TG(n)`, `&tog n`).
    case toggleLayer(Int)
    /// Activates a layer and deactivates the others above the default (`TO(n)`, `&to n`).
    case toLayer(Int)
    /// A layer while held, a key when tapped (`LT(n, KC_A)`, `&lt n A`).
    case layerTap(layer: Int, tap: KeyPress)
    /// Modifiers while held, a key when tapped (`LCTL_T(KC_A)`, `MT(MOD_LCTL | MOD_LSFT, KC_A)`, `&mt LCTRL A`).
    case modTap(modifiers: ModifierSet, tap: KeyPress)
    /// Plays the named macro (`MACRO(name)`).
    case macro(MacroName)
    /// A QMK keycode that has no other form here (RGB, bootloader, unassigned macro slots), kept verbatim so it
    /// survives a read-modify-write of the keyboard (`QMK(0x7C00)`).
    case qmkKeycode(UInt16)

    /// A plain key without modifiers.
    package static func key(_ usage: HIDUsage) -> KeyAction { .key(KeyPress(usage)) }

    /// The layer this action switches to, if any.
    package var referencedLayer: Int? {
        switch self {
        case .momentaryLayer(let layer), .toggleLayer(let layer), .toLayer(let layer): return layer
        case .layerTap(let layer, _): return layer
        default: return nil
        }
    }

    /// The macro this action plays, if any.
    package var referencedMacro: MacroName? {
        if case .macro(let name) = self { return name }
        return nil
    }

    /// The largest layer number that any spelling accepts (QMK has 32 layers).
    package static let maximumLayer = 31
}
