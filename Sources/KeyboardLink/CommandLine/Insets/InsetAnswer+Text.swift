import InsetCore

extension InsetAnswer {
    /// The answer as `key: value` pairs, in the order the CLI prints them.
    ///
    /// Keys: `mode`, `event`, `overlap`, `inset`, `guide` (X,Y,W,H in view coordinates), `guide-top`,
    /// `guide-height`, `dismiss-threshold`, `slide`, `keyboard` (X,Y,W,H on the screen, or `none`),
    /// `hardware-keyboard` (`yes`/`no`), `near-edges` (comma-separated, or `none`), `animation`.
    package var textFields: [(key: String, value: String)] {
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
    package var text: String {
        textFields.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
    }
}
