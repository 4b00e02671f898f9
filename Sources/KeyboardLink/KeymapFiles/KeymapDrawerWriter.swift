import KeyboardLinkKeymap

/// keymap-drawer's keymap YAML (`keymap draw` makes an SVG of it): the layers, one list per row of keys in the
/// layout's reading order, each key its tap legend, and `{t: tap, h: hold}` for mod-taps and layer-taps;
/// transparent keys are `{t: ▽, type: trans}`, keys that do nothing empty. The physical layout goes to
/// `keymap draw` as a QMK info.json (`-j`), which ``physicalLayoutJSON(_:)`` writes.
struct KeymapDrawerWriter {
    let content: KeymapFileContent
    let layout: PhysicalLayout
    let keyboard: String
    /// Where the physical layout's QMK info.json is (written beside the YAML), for `layout: {qmk_info_json: ...}`.
    var layoutFile: String? = nil

    func text() -> String {
        var lines = ["# \(keyboard): layout \(layout.id), written by kblink."]
        if let layoutFile {
            lines.append("layout: {qmk_info_json: \(Self.quoted(layoutFile))}")
        } else {
            lines.append("# Without the physical layout: export to a FILE to get FILE's .info.json beside it.")
        }
        lines.append("layers:")
        let rows = KeymapFiles.rows(of: layout)
        for (index, layer) in content.layers.enumerated() {
            lines.append("  \(Self.quoted(content.layerName(index))):")
            for row in rows {
                let keys = row.map { key in
                    legend(layer[key.name] ?? Keymap.clearedAction(layer: index), layerNames: content)
                }
                lines.append("    - [" + keys.joined(separator: ", ") + "]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func legend(_ action: KeyAction, layerNames: KeymapFileContent) -> String {
        switch action {
        case .none: return "''"
        case .transparent: return "{t: '▽', type: trans}"
        case .key(let press): return Self.quoted(Self.keyLegend(press))
        case .momentaryLayer(let layer): return Self.quoted(layerNames.layerName(layer))
        case .toggleLayer(let layer): return "{t: \(Self.quoted(layerNames.layerName(layer))), h: toggle}"
        case .toLayer(let layer): return "{t: \(Self.quoted(layerNames.layerName(layer))), h: to}"
        case .layerTap(let layer, let tap):
            return "{t: \(Self.quoted(Self.keyLegend(tap))), h: \(Self.quoted(layerNames.layerName(layer)))}"
        case .modTap(let modifiers, let tap):
            let hold = KeyAction.key(KeyPress(.keyboard(0), modifiers: modifiers)).description
            return
                "{t: \(Self.quoted(Self.keyLegend(tap))), h: \(Self.quoted(Self.modifierLegend(modifiers, fallback: hold)))}"
        case .macro(let name): return Self.quoted(name.rawValue)
        case .qmkKeycode: return Self.quoted(action.description)
        }
    }

    static func keyLegend(_ press: KeyPress) -> String {
        let text = KeyAction.key(press).formatted(.zmk)
        return text.hasPrefix("&kp ") ? String(text.dropFirst(4)) : text
    }

    static func modifierLegend(_ modifiers: ModifierSet, fallback: String) -> String {
        let names: [UInt8: String] = [
            0x01: "Ctrl", 0x02: "Shift", 0x04: "Alt", 0x08: "Gui", 0x10: "RCtrl", 0x20: "RShift", 0x40: "AltGr",
            0x80: "RGui",
        ]
        let parts = modifiers.members.compactMap { names[$0.rawValue] }
        return parts.isEmpty ? fallback : parts.joined(separator: "+")
    }

    /// A YAML single-quoted scalar.
    static func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" {
                result += "''"
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                result += " "
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    /// The layout as a QMK info.json for `keymap draw -j`: one layout, `LAYOUT`, keys in reading order with their
    /// places, sizes and matrix positions.
    static func physicalLayoutJSON(_ layout: PhysicalLayout) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        let keys = layout.keys.map { key in
            "{\"label\": \(JSONText.string(key.name.rawValue)), \"matrix\": [\(key.matrix.row), \(key.matrix.column)], "
                + "\"x\": \(number(key.frame.x)), \"y\": \(number(key.frame.y)), \"w\": \(number(key.frame.width)), "
                + "\"h\": \(number(key.frame.height))}"
        }
        return "{\"keyboard_name\": \(JSONText.string(layout.name)), \"layouts\": {\"LAYOUT\": {\"layout\": [\n  "
            + keys.joined(separator: ",\n  ") + "\n]}}}\n"
    }
}
