import KeyboardLinkKeymap

/// Vial's `.vil` layout backup, as vial-gui's "Save current layout" writes it:
///
/// ```json
/// {"version": 1, "uid": 0, "layout": [[["KC_ESC", "KC_F1", -1, ...], ...], ...], "encoder_layout": [],
///  "layout_options": -1, "macro": [[["tap", "KC_A"], ["text", "hi"], ["delay", 50]], ...],
///  "vial_protocol": 6, "via_protocol": 9, "tap_dance": [], "combo": [], "key_override": [], "settings": {}}
/// ```
///
/// `layout` holds every layer by switch-matrix row and column (`-1` where the matrix has no key); keycodes are
/// Vial's strings (`KC_A`, `LSFT(KC_A)`, `MO(1)`, `LT1(KC_A)`, `M0` for macro 0) or, in older files and for
/// keycodes without a name, the 16-bit number. Macro steps: `text`, `tap`/`down`/`up` with keycodes, `delay`.
/// Tap dances, combos and key overrides are kept empty on export and must be empty on import: kblink has none.
enum VialKeymapFile {
    static func matrixSize(_ layout: PhysicalLayout) -> (rows: Int, columns: Int) {
        (
            (layout.keys.map(\.matrix.row).max() ?? 0) + 1,
            (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        )
    }

    static func write(_ content: KeymapFileContent, layout: PhysicalLayout) throws(KeymapFileError) -> String {
        let macroNames = content.macros.keys.sorted()
        let (rows, columns) = matrixSize(layout)
        var keyAt: [MatrixPosition: KeyName] = [:]
        for key in layout.keys { keyAt[key.matrix] = key.name }
        var layers: [String] = []
        for (index, layer) in content.layers.enumerated() {
            var rowTexts: [String] = []
            for row in 0..<rows {
                var cells: [String] = []
                for column in 0..<columns {
                    guard let name = keyAt[MatrixPosition(row: row, column: column)] else {
                        cells.append("-1")
                        continue
                    }
                    let action = layer[name] ?? Keymap.clearedAction(layer: index)
                    cells.append(try keycode(action, key: name, layer: index, macroNames: macroNames))
                }
                rowTexts.append("[" + cells.joined(separator: ", ") + "]")
            }
            layers.append("[" + rowTexts.joined(separator: ", ") + "]")
        }
        var macros: [String] = []
        for name in macroNames {
            guard let macro = content.macros[name] else { continue }
            var steps: [String] = []
            for step in macro.steps {
                switch step {
                case .text(let text): steps.append("[\"text\", \(JSONText.string(text))]")
                case .delay(let milliseconds): steps.append("[\"delay\", \(milliseconds)]")
                case .tap(let press):
                    // Vial sends 16-bit keycodes in macros (vial protocol 2 and later): a chord is one modded keycode.
                    steps.append("[\"tap\", \(JSONText.string(vialKeycode(.key(press))))]")
                case .press(let usage): steps.append("[\"down\", \(JSONText.string(vialKeycode(.key(usage))))]")
                case .release(let usage): steps.append("[\"up\", \(JSONText.string(vialKeycode(.key(usage))))]")
                }
            }
            macros.append("[" + steps.joined(separator: ", ") + "]")
        }
        return "{\"version\": 1, \"uid\": 0, \"layout\": [" + layers.joined(separator: ", ")
            + "], \"encoder_layout\": [], \"layout_options\": -1, \"macro\": [" + macros.joined(separator: ", ")
            + "], \"vial_protocol\": 6, \"via_protocol\": 9, \"tap_dance\": [], \"combo\": [], \"key_override\": [], "
            + "\"settings\": {}}\n"
    }

    /// Vial's spelling of an action (`LT1(KC_A)` for layer-taps).
    static func vialKeycode(_ action: KeyAction) -> String {
        if case .layerTap(let layer, let tap) = action {
            return "LT\(layer)(\(KeyAction.key(tap).description))"
        }
        return action.description
    }

    /// A cell of `layout`: Vial's string, or the 16-bit keycode as a number where Vial has no name.
    static func keycode(_ action: KeyAction, key: KeyName, layer: Int, macroNames: [MacroName]) throws(KeymapFileError)
        -> String
    {
        let code: UInt16
        do {
            code = try action.qmkKeycode(macroNames: macroNames)
        } catch {
            throw KeymapFileError(line: 0, column: 0, "layer \(layer), key \(key): \(error.description)")
        }
        switch action {
        case .macro(let name):
            return JSONText.string("M\(macroNames.firstIndex(of: name) ?? 0)")
        case .qmkKeycode:
            return String(code)
        case .modTap(let modifiers, _) where modifiers.rawValue.nonzeroBitCount > 1:
            return String(code)
        default:
            return JSONText.string(vialKeycode(action))
        }
    }

    static func read(_ text: String, layout: PhysicalLayout, macroNames: [MacroName]) throws(KeymapFileError)
        -> KeymapFileContent
    {
        let document = try JSONKeymapDocument(text)
        for unsupported in ["tap_dance", "combo", "key_override"] {
            if let value = document.root[unsupported], case .array(let entries, _) = value,
                let used = entries.first(where: { !isEmptyEntry($0) })
            {
                throw document.error(
                    at: used,
                    "the file defines a \(unsupported.replacingOccurrences("_", with: " ")), which kblink has no place for"
                )
            }
        }
        var macros: [MacroName: Macro] = [:]
        let macroValues =
            try document.root["macro"].map { v throws(KeymapFileError) in try document.array(v, "\"macro\"") } ?? []
        guard macroValues.count <= 256 else { throw document.error(at: macroValues[256], "more than 256 macros") }
        for (index, value) in macroValues.enumerated() {
            let steps = try document.array(value, "macro \(index)")
            guard !steps.isEmpty, let name = KeymapFiles.macroName(index, macroNames) else { continue }
            macros[name] = try macro(steps, value, index: index, document)
        }
        let layoutValue = try document.member("layout")
        let layerValues = try document.array(layoutValue, "\"layout\"")
        guard (1...Keymap.maximumLayers).contains(layerValues.count) else {
            throw document.error(
                at: layoutValue, "a keymap has 1 to \(Keymap.maximumLayers) layers, this one \(layerValues.count)")
        }
        let (rows, columns) = matrixSize(layout)
        var layers: [[KeyName: KeyAction]] = []
        for (index, layerValue) in layerValues.enumerated() {
            let rowValues = try document.array(layerValue, "layer \(index)")
            var layer: [KeyName: KeyAction] = [:]
            for key in layout.keys {
                let where_ = "layer \(index), key \(key.name) (row \(key.matrix.row), column \(key.matrix.column))"
                guard key.matrix.row < rowValues.count else {
                    throw document.error(
                        at: layerValue, "layer \(index) has \(rowValues.count) matrix rows; \(layout.name) has \(rows)")
                }
                let cells = try document.array(rowValues[key.matrix.row], "layer \(index), row \(key.matrix.row)")
                guard key.matrix.column < cells.count else {
                    throw document.error(
                        at: rowValues[key.matrix.row],
                        "layer \(index), row \(key.matrix.row) has \(cells.count) columns; \(layout.name) has \(columns)"
                    )
                }
                var cell = cells[key.matrix.column]
                if case .string(let string, let offset) = cell, let rewritten = layerTapSpelling(string) {
                    cell = .string(rewritten, offset)
                }
                if case .number(let number, _) = cell, number == "-1" {
                    throw document.error(at: cell, "\(where_): -1 (no key) where \(layout.name) has a key")
                }
                layer[key.name] = try document.action(
                    cell, where_, macroNames: macroNames, macroCount: macroValues.count, layerCount: layerValues.count)
            }
            layers.append(layer)
        }
        return KeymapFileContent(layers: layers, macros: macros)
    }

    /// `LT1(KC_A)` as `LT(1, KC_A)`.
    private static func layerTapSpelling(_ text: String) -> String? {
        guard text.hasPrefix("LT"), let open = text.firstIndex(of: "("),
            let layer = Int(text[text.index(text.startIndex, offsetBy: 2)..<open])
        else { return nil }
        return "LT(\(layer), " + text[text.index(after: open)...]
    }

    private static func isEmptyEntry(_ value: PositionedJSON) -> Bool {
        switch value {
        case .array(let elements, _):
            // Vial writes unused entries as lists of KC_NO and zeros.
            return elements.allSatisfy { element in
                switch element {
                case .string(let text, _): return text == "KC_NO" || text.isEmpty
                case .number(let number, _): return number == "0"
                case .array, .object: return isEmptyEntry(element)
                default: return true
                }
            }
        case .object(let members, _): return members.isEmpty
        default: return true
        }
    }

    private static func macro(
        _ steps: [PositionedJSON], _ value: PositionedJSON, index: Int, _ document: JSONKeymapDocument
    ) throws(KeymapFileError) -> Macro {
        var result: [MacroStep] = []
        for step in steps {
            let parts = try document.array(step, "a macro step")
            guard let tagValue = parts.first else { throw document.error(at: step, "an empty macro step") }
            let tag = try document.string(tagValue, "a macro step's kind")
            switch tag {
            case "text":
                guard parts.count == 2 else { throw document.error(at: step, "a text step holds one string") }
                result.append(.text(try document.string(parts[1], "the text")))
            case "delay":
                guard parts.count == 2 else { throw document.error(at: step, "a delay step holds one number") }
                result.append(
                    .delay(milliseconds: try document.integer(parts[1], "a delay", in: 0...Macro.maximumDelay)))
            case "tap", "down", "up":
                for keycode in parts.dropFirst() {
                    let action = try document.action(
                        keycode, "macro \(index)", macroNames: [], macroCount: 0, layerCount: Keymap.maximumLayers)
                    guard case .key(let press) = action else {
                        throw document.error(at: keycode, "macro \(index): \(action) is not a key a macro can send")
                    }
                    switch tag {
                    case "tap": result.append(.tap(press))
                    case "down":
                        guard press.modifiers.isEmpty else {
                            throw document.error(at: keycode, "macro \(index): press modifiers as keys of their own")
                        }
                        result.append(.press(press.usage))
                    default:
                        guard press.modifiers.isEmpty else {
                            throw document.error(at: keycode, "macro \(index): release modifiers as keys of their own")
                        }
                        result.append(.release(press.usage))
                    }
                }
            default:
                throw document.error(at: tagValue, "unknown macro step '\(DevicetreeSource.printable(tag))'")
            }
        }
        do {
            return try Macro(steps: result)
        } catch {
            throw document.error(at: value, "macro \(index): \(error.description)")
        }
    }
}
