extension KeyAction {
    /// This action with a layer switch to `from` or above moved by `offset` (layers added or removed below it).
    func movingLayers(from: Int, by offset: Int) -> KeyAction {
        mappingLayers { $0 >= from ? $0 + offset : $0 }
    }

    /// The layer this action refers to in any form: the switches ``referencedLayer`` names (`MO`, `TG`, `TO`, `LT`)
    /// and QMK keycodes kept verbatim that switch layers too: `DF(n)` (0x5240), `OSL(n)` (0x5280), `TT(n)` (0x52C0),
    /// `PDF(n)` (0x52E0) and `LM(n, mod)` (0x5000).
    package var layerReference: Int? {
        if let layer = referencedLayer { return layer }
        guard case .qmkKeycode(let code) = self, let field = Self.qmkLayerField(code) else { return nil }
        return Int((code >> field.shift) & field.mask)
    }

    /// This action with the layer it refers to (``layerReference``) renumbered by `transform`: what moving,
    /// adding or removing layers does to every layer switch. A QMK keycode whose field cannot hold the new number
    /// stays as it is.
    package func mappingLayers(_ transform: (Int) -> Int) -> KeyAction {
        switch self {
        case .momentaryLayer(let layer): return .momentaryLayer(transform(layer))
        case .toggleLayer(let layer): return .toggleLayer(transform(layer))
        case .toLayer(let layer): return .toLayer(transform(layer))
        case .layerTap(let layer, let tap): return .layerTap(layer: transform(layer), tap: tap)
        case .qmkKeycode(let code):
            guard let field = Self.qmkLayerField(code) else { return self }
            let layer = transform(Int((code >> field.shift) & field.mask))
            guard layer >= 0, layer <= Int(field.mask) else { return self }
            return .qmkKeycode(code & ~(field.mask << field.shift) | UInt16(layer) << field.shift)
        default: return self
        }
    }

    /// Where a verbatim QMK keycode holds a layer number: `LM` (0x5000-0x51FF) in bits 5-8, `DF`, `OSL`, `TT` and
    /// `PDF` in bits 0-4 (QMK keycodes spec 0.0.3).
    private static func qmkLayerField(_ code: UInt16) -> (shift: UInt16, mask: UInt16)? {
        switch code {
        case 0x5000...0x51FF: return (5, 0x0F)
        case 0x5240...0x525F, 0x5280...0x529F, 0x52C0...0x52DF, 0x52E0...0x52FF: return (0, 0x1F)
        default: return nil
        }
    }
}
