import KeyboardLinkSupport

/// One key-naming scheme for every place a key is named (the picture, `SetBinding`, profiles, the CLI): a key is
/// found by its own name (`ENTER`), by what its keycap says in any spelling (QMK `KC_ENT` or `ENT`, ZMK `RET`,
/// evdev `KEY_ENTER`), or by the label `kblink keymap show` draws on it on a fresh layer 0 (`ENT`, `MO(1)`).
extension PhysicalLayout {
    /// The key a text names: its key name first, then the action its keycap has (any spelling), when exactly one
    /// key of the layout has it.
    /// - Throws: `KeymapError.unknownKey` with the closest key name or label of this layout.
    package func resolveKey(_ text: String) throws(KeymapError) -> PhysicalKey {
        if let name = try? KeyName(text), let key = key(exactly: name) { return key }
        if let key = keyByCap(text) { return key }
        throw .unknownKey(text, layout: id.rawValue, suggestion: suggestedKeyName(for: text))
    }

    /// The key name a text resolves to, or nil.
    package func resolvedKeyName(_ text: String) -> KeyName? {
        try? resolveKey(text).name
    }

    /// The label the picture shows on a key whose action is `action`: the QMK spelling without `KC_`.
    package static func capLabel(_ action: KeyAction) -> String {
        action.description.replacingEvery("KC_", with: "")
    }

    /// The key whose keycap (default action) is what `text` spells, when exactly one key has it.
    func keyByCap(_ text: String) -> PhysicalKey? {
        let trimmed = text.trimmingASCIISpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
        var candidates: [KeyAction] = []
        if let action = try? KeyAction(parsing: "KC_" + trimmed) { candidates.append(action) }
        if let action = try? KeyAction(parsing: trimmed) { candidates.append(action) }
        for action in candidates where action != .none && action != .transparent {
            let matching = keys.filter { $0.defaultAction == action }
            if matching.count == 1 { return matching[0] }
        }
        return nil
    }

    /// The closest key name or keycap label to a text that names no key, nil when nothing is close.
    func suggestedKeyName(for text: String) -> String? {
        let labels = keys.map { Self.capLabel($0.defaultAction) }
        return EditDistance.nearest(to: text, in: keys.map(\.name.rawValue) + labels)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingASCIISpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

}
