extension KeyAction {
    /// This action with a layer switch to `from` or above moved by `offset` (layers added or removed below it).
    func movingLayers(from: Int, by offset: Int) -> KeyAction {
        switch self {
        case .momentaryLayer(let layer) where layer >= from: return .momentaryLayer(layer + offset)
        case .toggleLayer(let layer) where layer >= from: return .toggleLayer(layer + offset)
        case .toLayer(let layer) where layer >= from: return .toLayer(layer + offset)
        case .layerTap(let layer, let tap) where layer >= from: return .layerTap(layer: layer + offset, tap: tap)
        default: return self
        }
    }
}
