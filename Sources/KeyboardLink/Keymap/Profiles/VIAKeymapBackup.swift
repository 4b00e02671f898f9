import KeyboardLinkSupport

/// VIA's keymap backup: the JSON the VIA configurator saves ("Save + Load" > "Save current layout").
///
/// ```json
/// { "name": "Aula F87", "vendorProductId": 2359820, "macros": ["", ...],
///   "layers": [ ["KC_ESC", "KC_NO", "KC_F1", ...], ["KC_TRNS", ...] ] }
/// ```
///
/// Each layer lists the keycodes of the switch matrix row by row (rows x columns entries). Keycodes are QMK names
/// (`KC_A`, `LCTL(KC_C)`, `MO(1)`, `KC_TRNS`) or 16-bit numbers written `0x7E00`. Matrix positions the layout has no
/// key for must hold `KC_NO` (or nothing useful); they are skipped. VIA's macro strings are not imported.
package struct VIAKeymapBackup: Sendable {
    struct Raw: Decodable {
        var name: String?
        var layers: [[String]]
    }

    /// The keymap a backup holds, for `layout`.
    /// - Throws: `KeymapError.invalidProfile` naming the layer and position of a bad entry, or when the layer size
    ///   does not match the layout's matrix.
    package static func keymap(json: [UInt8], layout: PhysicalLayout) throws(KeymapError) -> Keymap {
        guard json.count <= FileStore.maximumReadSize else { throw .invalidProfile("the VIA backup is too large") }
        let raw = try ProfileJSON.decode(Raw.self, from: json)
        guard !raw.layers.isEmpty else { throw .invalidProfile("the VIA backup has no layers") }
        guard raw.layers.count <= Keymap.maximumLayers else {
            throw .invalidProfile("the VIA backup has \(raw.layers.count) layers; at most \(Keymap.maximumLayers)")
        }
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        var byPosition: [MatrixPosition: KeyName] = [:]
        for key in layout.keys { byPosition[key.matrix] = key.name }
        var layers: [[KeyName: KeyAction]] = []
        for (layerIndex, entries) in raw.layers.enumerated() {
            guard entries.count == rows * columns else {
                throw .invalidProfile(
                    "layer \(layerIndex) of the VIA backup has \(entries.count) keycodes; layout \(layout.id) has a "
                        + "\(rows) x \(columns) matrix (\(rows * columns) keycodes)")
            }
            var layer: [KeyName: KeyAction] = [:]
            for (index, text) in entries.enumerated() {
                guard let name = byPosition[MatrixPosition(row: index / columns, column: index % columns)] else {
                    continue
                }
                do {
                    layer[name] = try action(text)
                } catch {
                    throw .invalidProfile(
                        "layer \(layerIndex), matrix row \(index / columns) column \(index % columns) (\(name)): "
                            + "\(error.description)")
                }
            }
            layers.append(layer)
        }
        return Keymap(layers: layers)
    }

    static func action(_ text: String) throws(KeymapError) -> KeyAction {
        let trimmed = text.trimmingWhiteSpaceForVIA()
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X"), let code = UInt16(trimmed.dropFirst(2), radix: 16) {
            return KeyAction(qmkKeycode: code)
        }
        return try KeyAction(parsing: trimmed)
    }

    /// Whether JSON looks like a VIA backup (layers of keycode lists, no `schemaVersion`).
    static func looksLikeBackup(_ json: [UInt8]) -> Bool {
        guard json.count <= FileStore.maximumReadSize else { return false }
        let text = String(decoding: json, as: UTF8.self)
        return !text.containsText("\"schemaVersion\"") && (try? ProfileJSON.decode(Raw.self, from: json)) != nil
    }
}

extension String {
    fileprivate func trimmingWhiteSpaceForVIA() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension KeymapEditSession {
    /// Stages a VIA keymap backup as one edit (undoable): layers from the backup, macros kept as they are.
    /// - Throws: `KeymapError.invalidProfile` naming the problem.
    @discardableResult
    package mutating func importVIABackup(json: [UInt8]) throws(KeymapError) -> ProfileImportSummary {
        var keymap = try VIAKeymapBackup.keymap(json: json, layout: layout)
        keymap.macros = draftKeymap.macros
        let change = try applyReturningChange(.importProfile(keymap))
        return ProfileImportSummary(change: change, document: keymap, layout: layout, replaced: true)
    }
}
