import KeyboardLinkKeymap

/// Reads a ZMK `.keymap` into the layers, layer names and macros kblink can hold, refusing by line and column
/// whatever it cannot represent.
///
/// Layers are the children of the node whose `compatible` is `zmk,keymap`, in file order; each layer's `bindings`
/// must give one binding per key position (the layout's keys in reading order). Bindings: `&kp` (with modifier
/// functions such as `LC(C)`, `LS(LA(TAB))`), `&mo`, `&lt`, `&mt`, `&tog`, `&to`, `&trans`, `&none` and
/// `&label` of a `zmk,behavior-macro` node of the file. Sticky keys and layers (`&sk`, `&sl`), key toggles
/// (`&kt`), Bluetooth and output selection (`&bt`, `&out`) and behaviours the file defines otherwise are refused:
/// kblink's keymaps cannot say them.
struct ZMKKeymapReader {
    let text: String
    let layout: PhysicalLayout

    /// What the behaviours kblink does not represent are, for the refusal.
    private static let unsupportedBehaviours: [String: String] = [
        "sk": "a sticky key", "sl": "a sticky layer", "kt": "a key toggle", "bt": "a Bluetooth profile command",
        "out": "an output selection", "key_repeat": "a key repeat", "caps_word": "caps word",
        "gresc": "grave escape", "sys_reset": "a reset", "bootloader": "a bootloader jump", "rgb_ug": "an RGB command",
        "bl": "a backlight command", "ext_power": "an external power command", "studio_unlock": "the Studio unlock key",
        "mkp": "a mouse button", "msc": "a mouse scroll", "mmv": "a mouse move", "soft_off": "soft off",
        "kp_repeat": "a key repeat", "td": "a tap dance",
    ]
    private static let supportedBehaviours: Set<String> = ["kp", "mo", "lt", "mt", "tog", "to", "trans", "none"]

    func read() throws(KeymapFileError) -> KeymapFileContent {
        let source = try DevicetreeSource(text)
        let nodes = source.roots.flatMap(\.allNodes)
        let keymaps = nodes.filter { $0.property("compatible")?.string == "zmk,keymap" }
        guard let keymap = keymaps.first else {
            throw KeymapFileError(.start, "no node has compatible = \"zmk,keymap\": this is not a ZMK keymap")
        }
        if keymaps.count > 1 {
            throw KeymapFileError(keymaps[1].position, "a second zmk,keymap node; a keymap file has one")
        }
        // Behaviours the file defines, by label: macros kblink reads, everything else it names in refusals.
        var defined: [String: DevicetreeSource.Node] = [:]
        for node in nodes {
            if let label = node.label { defined[label] = node }
        }
        try refuseUnrepresentable(source.roots, keymap: keymap)
        let layerNodes = keymap.children.filter { $0.property("bindings") != nil }
        guard !layerNodes.isEmpty else { throw KeymapFileError(keymap.position, "the keymap has no layers") }
        guard layerNodes.count <= Keymap.maximumLayers else {
            throw KeymapFileError(
                layerNodes[Keymap.maximumLayers].position, "more than \(Keymap.maximumLayers) layers")
        }
        var macros: [MacroName: Macro] = [:]
        var layers: [[KeyName: KeyAction]] = []
        var names: [String] = []
        for node in layerNodes {
            let property = node.property("display-name") ?? node.property("label")
            names.append(property?.string ?? "")
            let bindings = try split(node.property("bindings")!)
            guard bindings.count == layout.keys.count else {
                let position = bindings.last?.first?.position ?? node.property("bindings")!.position
                throw KeymapFileError(
                    bindings.count > layout.keys.count ? bindings[layout.keys.count][0].position : position,
                    "layer \(node.name) has \(bindings.count) bindings; \(layout.name) has \(layout.keys.count) key "
                        + "positions")
            }
            var layer: [KeyName: KeyAction] = [:]
            for (key, binding) in zip(layout.keys, bindings) {
                let action = try self.action(binding, layerCount: layerNodes.count, defined: defined, macros: &macros)
                layer[key.name] = action
            }
            layers.append(layer)
        }
        return KeymapFileContent(layers: layers, layerNames: names, macros: macros)
    }

    /// Node kinds whose meaning kblink's keymaps have no place for: refused rather than dropped.
    private static let unrepresentableNodes: [String: String] = [
        "zmk,combos": "combos", "zmk,conditional-layers": "conditional layers",
        "zmk,behavior-sensor-rotate": "encoder bindings", "zmk,behavior-sensor-rotate-var": "encoder bindings",
    ]

    /// Refuses what the file says that kblink would otherwise drop: combos, conditional layers, settings changed
    /// on ZMK's own behaviours (`&mt { tapping-term-ms = <200>; };`), layer properties other than the name and the
    /// bindings, macro timing.
    private func refuseUnrepresentable(_ roots: [DevicetreeSource.Node], keymap: DevicetreeSource.Node)
        throws(KeymapFileError)
    {
        for node in roots.flatMap(\.allNodes) {
            if let compatible = node.property("compatible")?.string, let what = Self.unrepresentableNodes[compatible] {
                throw KeymapFileError(
                    node.position, "the file defines \(what) (\(compatible)), which kblink has no place for")
            }
            if node.name.hasPrefix("&"), let property = node.properties.first {
                throw KeymapFileError(
                    property.position,
                    "\(node.name) { \(property.name) ... } changes a ZMK behaviour's settings, which kblink cannot set")
            }
            if node.property("compatible")?.string == "zmk,behavior-macro" {
                for property in node.properties
                where !["compatible", "#binding-cells", "bindings", "label", "display-name"].contains(property.name) {
                    throw KeymapFileError(
                        property.position,
                        "macro property \(property.name): kblink's macros have no timing of their own; use "
                            + "&macro_wait_time steps, or remove it")
                }
            }
        }
        for layer in keymap.children {
            for property in layer.properties where !["bindings", "display-name", "label"].contains(property.name) {
                throw KeymapFileError(
                    property.position, "layer property \(property.name) is not something kblink's keymaps hold")
            }
            if !layer.children.isEmpty {
                throw KeymapFileError(layer.children[0].position, "a node inside layer \(layer.name)")
            }
        }
    }

    /// The bindings of a `bindings` property: each starts at `&`.
    private func split(_ property: DevicetreeSource.Property) throws(KeymapFileError) -> [[DevicetreeSource.Token]] {
        var result: [[DevicetreeSource.Token]] = []
        for token in property.cells {
            if token.kind == .symbol && token.text == "&" {
                result.append([token])
            } else if result.isEmpty {
                throw KeymapFileError(
                    token.position,
                    "'\(DevicetreeSource.printable(token.text))' before the first binding; a binding starts with '&'")
            } else {
                result[result.count - 1].append(token)
            }
        }
        return result
    }

    /// The text of a binding's tokens, for `KeyAction(parsing:)`: `&kp LS(LA(TAB))`.
    private func text(_ tokens: ArraySlice<DevicetreeSource.Token>) -> String {
        var text = ""
        var previous: DevicetreeSource.Token?
        for token in tokens {
            // A space between two words only: `&kp`, `LS(LA(TAB))`, `&lt 1 SPACE`.
            if let previous, previous.kind == .word, token.kind == .word { text += " " }
            text += token.text
            previous = token
        }
        return text
    }

    private func action(
        _ binding: [DevicetreeSource.Token], layerCount: Int, defined: [String: DevicetreeSource.Node],
        macros: inout [MacroName: Macro]
    ) throws(KeymapFileError) -> KeyAction {
        let start = binding[0].position
        guard binding.count >= 2, binding[1].kind == .word else {
            throw KeymapFileError(start, "'&' must be followed by a behaviour's name")
        }
        let behaviour = binding[1].text
        if let node = defined[behaviour], !Self.supportedBehaviours.contains(behaviour) {
            let compatible = node.property("compatible")?.string ?? "no compatible"
            guard compatible == "zmk,behavior-macro" else {
                throw KeymapFileError(
                    start,
                    "&\(behaviour) is a \(compatible) behaviour defined on line \(node.position.line); kblink "
                        + "represents key presses, layer switches, mod-taps, layer-taps and macros only")
            }
            guard binding.count == 2 else {
                throw KeymapFileError(binding[2].position, "macro &\(behaviour) takes no parameters")
            }
            let name: MacroName
            do { name = try MacroName(behaviour) } catch {
                throw KeymapFileError(start, "'\(behaviour)' cannot be a kblink macro name: \(error.description)")
            }
            if macros[name] == nil { macros[name] = try macro(node) }
            return .macro(name)
        }
        if let what = Self.unsupportedBehaviours[behaviour] {
            throw KeymapFileError(
                start, "&\(behaviour) (\(what)) is not something kblink can put on this keyboard's keymap")
        }
        guard Self.supportedBehaviours.contains(behaviour) else {
            throw KeymapFileError(
                start,
                "&\(DevicetreeSource.printable(behaviour)) is neither a behaviour kblink knows (&kp, &mo, &lt, &mt, "
                    + "&tog, &to, &trans, &none) nor a macro defined in this file")
        }
        if let quoted = binding.first(where: { $0.kind == .string }) {
            throw KeymapFileError(
                quoted.position,
                "\"\(DevicetreeSource.printable(quoted.text))\" in a binding of &\(behaviour): parameters are key codes, "
                    + "layer numbers and #defined names, not strings")
        }
        let action: KeyAction
        do {
            action = try KeyAction(parsing: text(binding[...]))
        } catch {
            throw KeymapFileError(start, error.description)
        }
        // Macros are the file's own behaviours, read above; a parameter list that reads as one is not a binding.
        if action.referencedMacro != nil {
            throw KeymapFileError(start, "&\(behaviour) with these parameters is not a binding kblink can read")
        }
        if let layer = action.referencedLayer, layer >= layerCount {
            throw KeymapFileError(
                start, "&\(behaviour) switches to layer \(layer); the file has layers 0 to \(layerCount - 1)")
        }
        return action
    }

    /// A `zmk,behavior-macro` node as kblink macro steps: `&macro_tap` (the default), `&macro_press` and
    /// `&macro_release` with `&kp` bindings, `&macro_wait_time N` as a delay of N ms. Runs of two or more taps of
    /// printable characters become text.
    private func macro(_ node: DevicetreeSource.Node) throws(KeymapFileError) -> Macro {
        guard let property = node.property("bindings") else {
            throw KeymapFileError(node.position, "macro \(node.label ?? node.name) has no bindings")
        }
        if let cells = node.property("#binding-cells")?.cells, cells.map(\.text) != ["0"] {
            throw KeymapFileError(node.position, "macro \(node.label ?? node.name) takes parameters; kblink's do not")
        }
        enum Mode { case tap, press, release }
        var mode = Mode.tap
        var steps: [MacroStep] = []
        for binding in try split(property) {
            let start = binding[0].position
            guard binding.count >= 2, binding[1].kind == .word else {
                throw KeymapFileError(start, "'&' must be followed by a behaviour's name")
            }
            switch binding[1].text {
            case "macro_tap": mode = .tap
            case "macro_press": mode = .press
            case "macro_release": mode = .release
            case "macro_wait_time":
                guard binding.count == 3, let milliseconds = Int(binding[2].text),
                    (0...Macro.maximumDelay).contains(milliseconds)
                else {
                    throw KeymapFileError(start, "&macro_wait_time takes milliseconds, 0 to \(Macro.maximumDelay)")
                }
                steps.append(.delay(milliseconds: milliseconds))
            case "kp":
                let press: KeyPress
                do {
                    guard case .key(let parsed) = try KeyAction(parsing: text(binding[...])) else {
                        throw KeymapFileError(start, "&kp takes a key")
                    }
                    press = parsed
                } catch let error as KeymapFileError {
                    throw error
                } catch {
                    throw KeymapFileError(start, "\(error)")
                }
                switch mode {
                case .tap: steps.append(.tap(press))
                case .press, .release:
                    guard press.modifiers.isEmpty else {
                        throw KeymapFileError(
                            start, "a macro presses and releases plain keys; press the modifiers as keys of their own")
                    }
                    steps.append(mode == .press ? .press(press.usage) : .release(press.usage))
                }
            default:
                throw KeymapFileError(
                    start,
                    "&\(DevicetreeSource.printable(binding[1].text)) in a macro: kblink's macros tap, press and "
                        + "release keys (&kp) and wait (&macro_wait_time) only")
            }
        }
        do {
            return try Macro(steps: MacroCharacters.folded(steps))
        } catch {
            throw KeymapFileError(node.position, "macro \(node.label ?? node.name): \(error.description)")
        }
    }
}
