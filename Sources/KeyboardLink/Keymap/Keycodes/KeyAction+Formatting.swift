extension KeyAction: CustomStringConvertible {
    /// How to spell an action.
    package enum Spelling: Sendable {
        /// QMK: `KC_A`, `LSFT(KC_1)`, `MO(1)`, `LT(1, KC_SPC)`, `LCTL_T(KC_A)`, `MACRO(name)`.
        case qmk
        /// ZMK devicetree bindings: `&kp A`, `&kp LS(N1)`, `&mo 1`, `&lt 1 SPACE`, `&mt LCTRL A`, `&name`.
        case zmk
    }

    /// The QMK spelling, which `KeyAction(parsing:)` reads back to the same action.
    package var description: String { formatted(.qmk) }

    /// The action in the given spelling; every result parses back to the same action.
    package func formatted(_ spelling: Spelling) -> String {
        switch spelling {
        case .qmk: return qmkText
        case .zmk: return zmkText
        }
    }

    private var qmkText: String {
        switch self {
        case .none: return "KC_NO"
        case .transparent: return "KC_TRNS"
        case .key(let press): return Self.qmkText(press)
        case .momentaryLayer(let layer): return "MO(\(layer))"
        case .toggleLayer(let layer): return "TG(\(layer))"
        case .toLayer(let layer): return "TO(\(layer))"
        case .layerTap(let layer, let tap): return "LT(\(layer), \(Self.qmkText(tap)))"
        case .modTap(let modifiers, let tap):
            if modifiers.rawValue.nonzeroBitCount == 1, let name = Self.qmkWrapperNames[modifiers.rawValue] {
                return "\(name)_T(\(Self.qmkText(tap)))"
            }
            let masks = modifiers.members.compactMap { Self.qmkWrapperNames[$0.rawValue].map { "MOD_" + $0 } }
            return "MT(\(masks.isEmpty ? "0" : masks.joined(separator: " | ")), \(Self.qmkText(tap)))"
        case .macro(let name): return "MACRO(\(name))"
        case .qmkKeycode(let code): return "QMK(\(HIDUsage.hex(code, digits: 4)))"
        }
    }

    private var zmkText: String {
        switch self {
        case .none: return "&none"
        case .transparent: return "&trans"
        case .key(let press): return "&kp " + Self.zmkText(press)
        case .momentaryLayer(let layer): return "&mo \(layer)"
        case .toggleLayer(let layer): return "&tog \(layer)"
        case .toLayer(let layer): return "&to \(layer)"
        case .layerTap(let layer, let tap): return "&lt \(layer) \(Self.zmkText(tap))"
        case .modTap(let modifiers, let tap):
            // The hold parameter is a modifier key, with any further modifiers as wrappers: LC(LSHFT).
            let members = modifiers.members
            guard let last = members.last, let usage = last.usage else { return "&mt NONE " + Self.zmkText(tap) }
            let hold = KeyPress(usage, modifiers: ModifierSet(rawValue: modifiers.rawValue & ~last.rawValue))
            return "&mt \(Self.zmkText(hold)) \(Self.zmkText(tap))"
        case .macro(let name): return "&\(name)"
        case .qmkKeycode: return qmkText
        }
    }

    static let qmkWrapperNames: [UInt8: String] = [
        0x01: "LCTL", 0x02: "LSFT", 0x04: "LALT", 0x08: "LGUI", 0x10: "RCTL", 0x20: "RSFT", 0x40: "RALT", 0x80: "RGUI",
    ]

    private static let zmkWrapperNames: [UInt8: String] = [
        0x01: "LC", 0x02: "LS", 0x04: "LA", 0x08: "LG", 0x10: "RC", 0x20: "RS", 0x40: "RA", 0x80: "RG",
    ]

    static func qmkText(_ press: KeyPress) -> String {
        let base = KeycodeTable.shared.entry(for: press.usage)?.qmkNames.first ?? press.usage.description
        return wrap(base, press.modifiers, names: qmkWrapperNames)
    }

    static func zmkText(_ press: KeyPress) -> String {
        let entry = KeycodeTable.shared.entry(for: press.usage)
        let base = entry?.zmkNames.first ?? entry?.qmkNames.first ?? press.usage.description
        return wrap(base, press.modifiers, names: zmkWrapperNames)
    }

    private static func wrap(_ base: String, _ modifiers: ModifierSet, names: [UInt8: String]) -> String {
        var text = base
        for member in modifiers.members.reversed() {
            text = "\(names[member.rawValue] ?? "?")(\(text))"
        }
        return text
    }
}
