extension KeyAction {
    /// QMK's keycode ranges (QMK keycodes spec 0.0.1 and later, VIA protocol 12 and later).
    static let qmkModTapBase: UInt16 = 0x2000
    static let qmkLayerTapBase: UInt16 = 0x4000
    static let qmkToBase: UInt16 = 0x5200
    static let qmkMomentaryBase: UInt16 = 0x5220
    static let qmkToggleBase: UInt16 = 0x5260
    package static let qmkMacroBase: UInt16 = 0x7700

    /// Reads a 16-bit QMK keycode as VIA transfers it (VIA protocol 12 and later, i.e. QMK 0.19 and later).
    ///
    /// Basic keycodes 0x0004-0x00FF become HID usages; 0x0100-0x1FFF modifier wrappers, 0x2000-0x3FFF mod-taps,
    /// 0x4000-0x4FFF layer-taps, 0x5200 `TO`, 0x5220 `MO`, 0x5260 `TG`, 0x7700 macros (`macroNames[n]` names
    /// macro n). Anything else is kept as `.qmkKeycode` so that it survives being written back.
    /// - Parameter macroNames: the profile's macros in VIA slot order.
    package init(qmkKeycode code: UInt16, macroNames: [MacroName] = []) {
        let table = KeycodeTable.shared
        let basic = code & 0xFF
        switch code {
        case 0x0000:
            self = .none
        case 0x0001:
            self = .transparent
        case 0x0002...0x00FF:
            self = table.usage(forQMKBasicCode: code).map { .key($0) } ?? .qmkKeycode(code)
        case 0x0100...0x1FFF:
            let modifiers = ModifierSet(qmkBits: (code >> 8) & 0x1F)
            self =
                table.usage(forQMKBasicCode: basic).map { .key(KeyPress($0, modifiers: modifiers)) }
                ?? .qmkKeycode(code)
        case 0x2000...0x3FFF:
            let modifiers = ModifierSet(qmkBits: (code >> 8) & 0x1F)
            if let usage = table.usage(forQMKBasicCode: basic), !modifiers.isEmpty {
                self = .modTap(modifiers: modifiers, tap: KeyPress(usage))
            } else {
                self = .qmkKeycode(code)
            }
        case 0x4000...0x4FFF:
            let layer = Int((code >> 8) & 0x0F)
            self =
                table.usage(forQMKBasicCode: basic).map { .layerTap(layer: layer, tap: KeyPress($0)) }
                ?? .qmkKeycode(code)
        case 0x5200...0x521F:
            self = .toLayer(Int(code & 0x1F))
        case 0x5220...0x523F:
            self = .momentaryLayer(Int(code & 0x1F))
        case 0x5260...0x527F:
            self = .toggleLayer(Int(code & 0x1F))
        case 0x7700...0x777F:
            let index = Int(code - Self.qmkMacroBase)
            self = index < macroNames.count ? .macro(macroNames[index]) : .qmkKeycode(code)
        default:
            self = .qmkKeycode(code)
        }
    }

    /// The 16-bit QMK keycode that VIA writes for this action.
    /// - Parameter macroNames: the profile's macros in VIA slot order; `MACRO(name)` becomes `0x7700 + index`.
    /// - Throws: `KeymapError.notEncodable` for what QMK cannot say: mixed left and right modifiers, a key without
    ///   a QMK basic keycode, layer-tap beyond layer 15 or with modifiers on the tap key, layers beyond 31, a macro
    ///   that has no slot.
    package func qmkKeycode(macroNames: [MacroName] = []) throws(KeymapError) -> UInt16 {
        switch self {
        case .none:
            return 0x0000
        case .transparent:
            return 0x0001
        case .key(let press):
            let code = try basicCode(press.usage)
            guard !press.modifiers.isEmpty else { return code }
            return (try qmkModifierBits(press.modifiers)) << 8 | code
        case .momentaryLayer(let layer):
            return Self.qmkMomentaryBase | UInt16(try checkedLayer(layer, max: 31))
        case .toggleLayer(let layer):
            return Self.qmkToggleBase | UInt16(try checkedLayer(layer, max: 31))
        case .toLayer(let layer):
            return Self.qmkToBase | UInt16(try checkedLayer(layer, max: 31))
        case .layerTap(let layer, let tap):
            let checked = try checkedLayer(layer, max: 15)
            guard tap.modifiers.isEmpty else {
                throw notEncodable("QMK's layer-tap sends a plain key; drop the modifiers from the tap key")
            }
            return Self.qmkLayerTapBase | UInt16(checked) << 8 | (try basicCode(tap.usage))
        case .modTap(let modifiers, let tap):
            guard tap.modifiers.isEmpty else {
                throw notEncodable("QMK's mod-tap sends a plain key; drop the modifiers from the tap key")
            }
            guard !modifiers.isEmpty else { throw notEncodable("a mod-tap needs at least one modifier") }
            return Self.qmkModTapBase | (try qmkModifierBits(modifiers)) << 8 | (try basicCode(tap.usage))
        case .macro(let name):
            guard let index = macroNames.firstIndex(of: name) else {
                throw notEncodable("macro \(name) has no slot among the keyboard's macros")
            }
            guard index < 128 else { throw notEncodable("QMK has 128 macro slots; \(name) is number \(index)") }
            return Self.qmkMacroBase + UInt16(index)
        case .qmkKeycode(let code):
            return code
        }
    }

    private func notEncodable(_ reason: String) -> KeymapError {
        .notEncodable(description, target: "a QMK keycode", reason: reason)
    }

    private func basicCode(_ usage: HIDUsage) throws(KeymapError) -> UInt16 {
        guard let code = KeycodeTable.shared.qmkBasicCode(for: usage), code <= 0xFF else {
            throw notEncodable("QMK has no basic keycode for usage \(usage)")
        }
        return code
    }

    private func qmkModifierBits(_ modifiers: ModifierSet) throws(KeymapError) -> UInt16 {
        guard let bits = modifiers.qmkBits else {
            throw notEncodable("QMK cannot combine left-hand and right-hand modifiers in one keycode")
        }
        return bits
    }

    private func checkedLayer(_ layer: Int, max: Int) throws(KeymapError) -> Int {
        guard layer >= 0, layer <= max else { throw notEncodable("QMK encodes layers 0 to \(max) here") }
        return layer
    }
}
