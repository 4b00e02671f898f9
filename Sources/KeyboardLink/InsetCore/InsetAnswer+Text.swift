extension InsetAnswer {
    /// `applied`, `ignored (zero frame while dragging)`, `ignored (rotation transient)` or `none`.
    package static func text(_ disposition: EventDisposition?) -> String {
        switch disposition {
        case nil: return "none"
        case .applied: return "applied"
        case .ignored(.zeroFrameWhileDragging): return "ignored (zero frame while dragging)"
        case .ignored(.rotationTransient): return "ignored (rotation transient)"
        }
    }

    /// `none`, `335 -> 0 at once`, or `0 -> 335 over 0.25 s, curve 7 (keyboard)`.
    package static func text(_ animation: InsetAnimation?) -> String {
        guard let animation else { return "none" }
        let change = "\(PointFormat.text(animation.from)) -> \(PointFormat.text(animation.to))"
        if animation.isImmediate { return change + " at once" }
        return "\(change) over \(PointFormat.text(animation.duration)) s, curve \(animation.curve)"
    }

    /// The edges in a fixed order, comma-separated, or `none`.
    package static func text(_ edges: Set<Edge>) -> String {
        let names = Edge.allCases.filter(edges.contains).map(\.rawValue)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
