extension InsetAnswer {
    /// The answer as `key: value` pairs, in the order the CLI prints them.
    ///
    /// Keys: `mode`, `event`, `overlap`, `inset`, `guide` (X,Y,W,H in view coordinates), `guide-top`,
    /// `guide-height`, `dismiss-threshold`, `slide`, `keyboard` (X,Y,W,H on the screen, or `none`),
    /// `hardware-keyboard` (`yes`/`no`), `near-edges` (comma-separated, or `none`), `animation`.
    public var textFields: [(key: String, value: String)] {
        [
            ("mode", mode.rawValue),
            ("event", Self.text(disposition)),
            ("overlap", PointFormat.text(overlap)),
            ("inset", PointFormat.text(reservedInset)),
            ("guide", GeometryArgument.text(guideFrame)),
            ("guide-top", PointFormat.text(guideTop)),
            ("guide-height", PointFormat.text(guideHeight)),
            ("dismiss-threshold", PointFormat.text(dismissThreshold)),
            ("slide", PointFormat.text(slide)),
            ("keyboard", keyboardFrame.map(GeometryArgument.text) ?? "none"),
            ("hardware-keyboard", hardwareKeyboardAttached ? "yes" : "no"),
            ("near-edges", Self.text(nearEdges)),
            ("animation", Self.text(animation)),
        ]
    }

    /// The answer as `key: value` lines joined by newlines (no trailing newline).
    public var text: String {
        textFields.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
    }

    /// `applied`, `ignored (zero frame while dragging)`, `ignored (rotation transient)` or `none`.
    static func text(_ disposition: EventDisposition?) -> String {
        switch disposition {
        case nil: return "none"
        case .applied: return "applied"
        case .ignored(.zeroFrameWhileDragging): return "ignored (zero frame while dragging)"
        case .ignored(.rotationTransient): return "ignored (rotation transient)"
        }
    }

    /// `none`, `335 -> 0 at once`, or `0 -> 335 over 0.25 s, curve 7 (keyboard)`.
    static func text(_ animation: InsetAnimation?) -> String {
        guard let animation else { return "none" }
        let change = "\(PointFormat.text(animation.from)) -> \(PointFormat.text(animation.to))"
        if animation.isImmediate { return change + " at once" }
        return "\(change) over \(PointFormat.text(animation.duration)) s, curve \(animation.curve)"
    }

    /// The edges in a fixed order, comma-separated, or `none`.
    static func text(_ edges: Set<Edge>) -> String {
        let names = Edge.allCases.filter(edges.contains).map(\.rawValue)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
