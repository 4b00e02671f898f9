import KeyboardLinkKeymap

/// QMK's `keymap.json`, the shape `qmk c2json` writes and `qmk json2c`/`qmk compile` read:
///
/// ```json
/// {"version": 1, "notes": "", "documentation": "...", "keyboard": "aula-f87", "keymap": "kblink",
///  "layout": "LAYOUT", "layers": [["KC_ESC", "KC_F1", ...], ...], "author": "",
///  "macros": [["text", {"action": "tap", "keycodes": ["LCTL", "C"]}, {"action": "delay", "duration": 50}]]}
/// ```
///
/// Each layer lists the keys in the layout's reading order. Macros are QMK's JSON macros (strings are text;
/// `tap`, `down`, `up` with keycodes without `KC_`, `delay` with a duration); keys play them as `QK_MACRO_N`.
enum QMKKeymapFile {
    static func write(_ content: KeymapFileContent, layout: PhysicalLayout, keyboard: String) throws(KeymapFileError)
        -> String
    {
        let macroNames = content.macros.keys.sorted()
        var layers: [String] = []
        for (index, layer) in content.layers.enumerated() {
            var keys: [String] = []
            for key in layout.keys {
                let action = layer[key.name] ?? Keymap.clearedAction(layer: index)
                keys.append(JSONText.string(try keycode(action, key: key.name, layer: index, macroNames: macroNames)))
            }
            layers.append("    [" + keys.joined(separator: ", ") + "]")
        }
        var macros: [String] = []
        for name in macroNames {
            guard let macro = content.macros[name] else { continue }
            var steps: [String] = []
            for step in macro.steps {
                switch step {
                case .text(let text): steps.append(JSONText.string(text))
                case .delay(let milliseconds): steps.append("{\"action\": \"delay\", \"duration\": \(milliseconds)}")
                case .tap(let press):
                    let names =
                        press.modifiers.members.compactMap { $0 == [] ? nil : modifierKeyName($0) }
                        + [keyName(press.usage)]
                    steps.append(
                        "{\"action\": \"tap\", \"keycodes\": [" + names.map(JSONText.string).joined(separator: ", ")
                            + "]}")
                case .press(let usage):
                    steps.append("{\"action\": \"down\", \"keycodes\": [\(JSONText.string(keyName(usage)))]}")
                case .release(let usage):
                    steps.append("{\"action\": \"up\", \"keycodes\": [\(JSONText.string(keyName(usage)))]}")
                }
            }
            macros.append("    [" + steps.joined(separator: ", ") + "]")
        }
        var text =
            "{\n  \"version\": 1,\n  \"notes\": \(JSONText.string("\(keyboard), layout \(layout.id), written by kblink")),\n"
        text += "  \"documentation\": \"Layers list the keys in reading order (top row first, left to right).\",\n"
        text += "  \"keyboard\": \(JSONText.string(layout.id.rawValue)),\n"
        text += "  \"keymap\": \"kblink\",\n"
        text += "  \"layout\": \"LAYOUT\",\n"
        text += "  \"layers\": [\n" + layers.joined(separator: ",\n") + "\n  ],\n"
        if !macros.isEmpty { text += "  \"macros\": [\n" + macros.joined(separator: ",\n") + "\n  ],\n" }
        text += "  \"author\": \"\"\n}\n"
        return text
    }

    /// A key's QMK keycode string; macros as `QK_MACRO_N` in name order.
    static func keycode(_ action: KeyAction, key: KeyName, layer: Int, macroNames: [MacroName]) throws(KeymapFileError)
        -> String
    {
        if case .macro(let name) = action {
            guard let index = macroNames.firstIndex(of: name), index < 128 else {
                throw KeymapFileError(line: 0, column: 0, "layer \(layer), key \(key): macro \(name) has no QMK slot")
            }
            return "QK_MACRO_\(index)"
        }
        do {
            _ = try action.qmkKeycode(macroNames: macroNames)
        } catch {
            throw KeymapFileError(line: 0, column: 0, "layer \(layer), key \(key): \(error.description)")
        }
        // kblink's own spelling for keycodes without a name is QMK(0x....), which QMK does not read: the number is.
        if case .qmkKeycode(let code) = action { return "0x" + String(code, radix: 16, uppercase: true) }
        return action.description
    }

    /// A key's QMK name without `KC_`, as QMK's JSON macros spell keys.
    static func keyName(_ usage: HIDUsage) -> String {
        let text = KeyAction.key(usage).description
        return text.hasPrefix("KC_") ? String(text.dropFirst(3)) : text
    }

    private static func modifierKeyName(_ member: ModifierSet) -> String? {
        let names: [UInt8: String] = [
            0x01: "LCTL", 0x02: "LSFT", 0x04: "LALT", 0x08: "LGUI", 0x10: "RCTL", 0x20: "RSFT", 0x40: "RALT",
            0x80: "RGUI",
        ]
        return names[member.rawValue]
    }

    static func read(_ text: String, layout: PhysicalLayout, macroNames: [MacroName]) throws(KeymapFileError)
        -> KeymapFileContent
    {
        let document = try JSONKeymapDocument(text)
        let layersValue = try document.member("layers")
        let layerValues = try document.array(layersValue, "\"layers\"")
        guard (1...Keymap.maximumLayers).contains(layerValues.count) else {
            throw document.error(
                at: layersValue, "a keymap has 1 to \(Keymap.maximumLayers) layers, this one \(layerValues.count)")
        }
        let macroValues =
            try document.root["macros"].map { v throws(KeymapFileError) in try document.array(v, "\"macros\"") } ?? []
        guard macroValues.count <= 128 else {
            throw document.error(at: macroValues[128], "QMK has 128 macro slots; this is macro 128")
        }
        var macros: [MacroName: Macro] = [:]
        for (index, value) in macroValues.enumerated() {
            guard let name = KeymapFiles.macroName(index, macroNames) else { continue }
            macros[name] = try macro(value, index: index, document)
        }
        var layers: [[KeyName: KeyAction]] = []
        for (index, value) in layerValues.enumerated() {
            let keys = try document.array(value, "layer \(index)")
            guard keys.count == layout.keys.count else {
                throw document.error(
                    at: value, "layer \(index) has \(keys.count) keys; \(layout.name) has \(layout.keys.count)")
            }
            var layer: [KeyName: KeyAction] = [:]
            for (key, keyValue) in zip(layout.keys, keys) {
                layer[key.name] = try document.action(
                    keyValue, "layer \(index), key \(key.name)", macroNames: macroNames, macroCount: macroValues.count,
                    layerCount: layerValues.count)
            }
            layers.append(layer)
        }
        return KeymapFileContent(layers: layers, macros: macros)
    }

    private static func macro(_ value: PositionedJSON, index: Int, _ document: JSONKeymapDocument)
        throws(KeymapFileError) -> Macro
    {
        var steps: [MacroStep] = []
        for step in try document.array(value, "macro \(index)") {
            if case .string(let text, _) = step {
                steps.append(.text(text))
                continue
            }
            guard case .object = step else {
                throw document.error(at: step, "a macro step is a string or an object, not \(step.kind)")
            }
            let action = try document.string(try document.member("action", of: step), "the step's action")
            switch action {
            case "delay":
                steps.append(
                    .delay(
                        milliseconds: try document.integer(
                            try document.member("duration", of: step), "a delay's duration", in: 0...Macro.maximumDelay)
                    ))
            case "tap", "down", "up", "beep":
                guard action != "beep" else { throw document.error(at: step, "kblink's macros cannot beep") }
                let keycodes = try document.array(try document.member("keycodes", of: step), "keycodes")
                var usages: [HIDUsage] = []
                for keycode in keycodes {
                    let name = try document.string(keycode, "a keycode")
                    let parsed = (try? KeyAction(parsing: "KC_" + name)) ?? (try? KeyAction(parsing: name))
                    guard case .key(let press)? = parsed, press.modifiers.isEmpty else {
                        throw document.error(
                            at: keycode, "'\(DevicetreeSource.printable(name))' is not a key a macro can send")
                    }
                    usages.append(press.usage)
                }
                guard !usages.isEmpty else { throw document.error(at: step, "a \(action) step needs keycodes") }
                switch action {
                case "tap":
                    // QMK taps the keys in order, holding none; a leading run of modifiers is how kblink writes a chord.
                    var modifiers = ModifierSet()
                    var rest = usages[...]
                    while rest.count > 1, let bit = rest.first?.modifierBit {
                        modifiers.formUnion(bit)
                        rest = rest.dropFirst()
                    }
                    if rest.count == 1, !modifiers.isEmpty {
                        steps.append(.tap(KeyPress(rest[rest.startIndex], modifiers: modifiers)))
                    } else {
                        steps += usages.map { .tap(KeyPress($0)) }
                    }
                case "down": steps += usages.map { .press($0) }
                default: steps += usages.map { .release($0) }
                }
            default:
                throw document.error(at: step, "unknown macro action '\(DevicetreeSource.printable(action))'")
            }
        }
        do {
            return try Macro(steps: steps)
        } catch {
            throw document.error(at: value, "macro \(index): \(error.description)")
        }
    }
}
