/// The JSON shapes of keymaps and edit operations, with conversions that validate and say where a problem is
/// ("layer 2, key ESC: unknown key code ...").
enum KeymapJSON {
    /// A keymap: per layer, key name to action text; macro name to macro text.
    struct RawKeymap: Codable, Equatable {
        var layers: [[String: String]]
        var macros: [String: String]?
        /// Per layer, its name (empty: none); absent when no layer has one (and in files of older kblink).
        var layerNames: [String]?
    }

    /// An edit operation: `op` names it, the other fields are those it uses.
    struct RawOperation: Codable, Equatable {
        var op: String
        var layer: Int?
        var key: String?
        var action: String?
        var zone: String?
        var from: Int?
        var to: Int?
        var first: RawSlot?
        var second: RawSlot?
        var name: String?
        var definition: String?
        var keymap: RawKeymap?
    }

    struct RawSlot: Codable, Equatable {
        var zone: String
        var layer: Int
    }

    static let maximumLayers = Keymap.maximumLayers
    static let maximumKeysPerLayer = PhysicalLayout.maximumKeys
    static let maximumMacros = 1_024

    static func raw(_ keymap: Keymap) -> RawKeymap {
        RawKeymap(
            layers: keymap.layers.map { layer in
                Dictionary(uniqueKeysWithValues: layer.map { ($0.key.rawValue, $0.value.description) })
            },
            macros: Dictionary(uniqueKeysWithValues: keymap.macros.map { ($0.key.rawValue, $0.value.description) }),
            layerNames: rawNames(keymap))
    }

    /// Per layer, its name (empty: none); nil when no layer has one.
    static func rawNames(_ keymap: Keymap) -> [String]? {
        keymap.layerNames.isEmpty ? nil : (0..<keymap.layerCount).map { keymap.layerName($0)?.rawValue ?? "" }
    }

    /// Layer names as read: at most one per layer, each empty or a valid ``LayerName``.
    static func layerNames(_ raw: [String]?, layerCount: Int) throws(KeymapError) -> [Int: LayerName] {
        guard let raw else { return [:] }
        guard raw.count <= layerCount else {
            throw .invalidProfile("\(raw.count) layer names for \(layerCount) layers")
        }
        var names: [Int: LayerName] = [:]
        for (layer, text) in raw.enumerated() {
            do {
                names[layer] = try LayerName.optional(text)
            } catch {
                throw .invalidProfile("the name of layer \(layer): \(error.description)")
            }
        }
        return names
    }

    static func keymap(_ raw: RawKeymap) throws(KeymapError) -> Keymap {
        guard (1...maximumLayers).contains(raw.layers.count) else {
            throw .invalidProfile("a keymap needs 1 to \(maximumLayers) layers, found \(raw.layers.count)")
        }
        var macros: [MacroName: Macro] = [:]
        let rawMacros = raw.macros ?? [:]
        guard rawMacros.count <= maximumMacros else {
            throw .invalidProfile("at most \(maximumMacros) macros are allowed, found \(rawMacros.count)")
        }
        for (name, definition) in rawMacros.sorted(by: { $0.key < $1.key }) {
            do {
                macros[try MacroName(name)] = try Macro(parsing: definition)
            } catch {
                throw .invalidProfile("macro '\(KeymapError.printable(name))': \(error.description)")
            }
        }
        var layers: [[KeyName: KeyAction]] = []
        for (index, rawLayer) in raw.layers.enumerated() {
            guard rawLayer.count <= maximumKeysPerLayer else {
                throw .invalidProfile("layer \(index) has \(rawLayer.count) keys; at most \(maximumKeysPerLayer)")
            }
            var layer: [KeyName: KeyAction] = [:]
            for (key, text) in rawLayer.sorted(by: { $0.key < $1.key }) {
                do {
                    let action = try KeyAction(parsing: text)
                    try Keymap.check(action, layerCount: raw.layers.count, macros: macros)
                    layer[try KeyName(key)] = action
                } catch {
                    throw .invalidProfile("layer \(index), key \(KeymapError.printable(key)): \(error.description)")
                }
            }
            layers.append(layer)
        }
        return Keymap(
            layers: layers, macros: macros, layerNames: try layerNames(raw.layerNames, layerCount: layers.count))
    }

    static func raw(_ operation: EditOperation) -> RawOperation {
        var raw = RawOperation(op: "")
        switch operation {
        case .setBinding(let layer, let key, let action):
            raw.op = "setBinding"
            raw.layer = layer
            raw.key = key.rawValue
            raw.action = action.description
        case .clearZone(let zone, let layer):
            raw.op = "clearZone"
            raw.zone = zone.rawValue
            raw.layer = layer
        case .copyZone(let zone, let from, let to):
            raw.op = "copyZone"
            raw.zone = zone.rawValue
            raw.from = from
            raw.to = to
        case .swapZones(let first, let second):
            raw.op = "swapZones"
            raw.first = RawSlot(zone: first.zone.rawValue, layer: first.layer)
            raw.second = RawSlot(zone: second.zone.rawValue, layer: second.layer)
        case .setMacro(let name, let macro), .recordMacro(let name, let macro):
            if case .setMacro = operation { raw.op = "setMacro" } else { raw.op = "recordMacro" }
            raw.name = name.rawValue
            raw.definition = macro.description
        case .removeMacro(let name):
            raw.op = "removeMacro"
            raw.name = name.rawValue
        case .importProfile(let keymap):
            raw.op = "importProfile"
            raw.keymap = Self.raw(keymap)
        case .mergeProfile(let keymap):
            raw.op = "mergeProfile"
            raw.keymap = Self.raw(keymap)
        case .replaceKeymap(let keymap):
            raw.op = "replaceKeymap"
            raw.keymap = Self.raw(keymap)
        case .addLayer(let layer):
            raw.op = "addLayer"
            raw.layer = layer
        case .removeLayer(let layer):
            raw.op = "removeLayer"
            raw.layer = layer
        case .renameLayer(let layer, let name):
            raw.op = "renameLayer"
            raw.layer = layer
            raw.name = name?.rawValue ?? ""
        case .moveLayer(let from, let to):
            raw.op = "moveLayer"
            raw.from = from
            raw.to = to
        case .copyLayer(let from, let to):
            raw.op = "copyLayer"
            raw.from = from
            raw.to = to
        }
        return raw
    }

    static func operation(_ raw: RawOperation) throws(KeymapError) -> EditOperation {
        func need<Value>(_ value: Value?, _ field: String) throws(KeymapError) -> Value {
            guard let value else { throw .invalidProfile("'\(raw.op)' needs '\(field)'") }
            return value
        }
        func slot(_ value: RawSlot?, _ field: String) throws(KeymapError) -> ZoneSlot {
            let value = try need(value, field)
            return ZoneSlot(try ZoneID(parsing: value.zone), layer: value.layer)
        }
        switch raw.op {
        case "setBinding":
            return .setBinding(
                layer: try need(raw.layer, "layer"), key: try KeyName(try need(raw.key, "key")),
                action: try KeyAction(parsing: try need(raw.action, "action")))
        case "clearZone":
            return .clearZone(try ZoneID(parsing: try need(raw.zone, "zone")), layer: try need(raw.layer, "layer"))
        case "copyZone":
            return .copyZone(
                try ZoneID(parsing: try need(raw.zone, "zone")), from: try need(raw.from, "from"),
                to: try need(raw.to, "to"))
        case "swapZones":
            return .swapZones(try slot(raw.first, "first"), try slot(raw.second, "second"))
        case "setMacro":
            return .setMacro(
                try MacroName(try need(raw.name, "name")), try Macro(parsing: try need(raw.definition, "definition")))
        case "recordMacro":
            return .recordMacro(
                try MacroName(try need(raw.name, "name")), try Macro(parsing: try need(raw.definition, "definition")))
        case "removeMacro":
            return .removeMacro(try MacroName(try need(raw.name, "name")))
        case "importProfile":
            return .importProfile(try keymap(try need(raw.keymap, "keymap")))
        case "mergeProfile":
            return .mergeProfile(try keymap(try need(raw.keymap, "keymap")))
        case "replaceKeymap":
            return .replaceKeymap(try keymap(try need(raw.keymap, "keymap")))
        case "addLayer":
            return .addLayer(try need(raw.layer, "layer"))
        case "removeLayer":
            return .removeLayer(try need(raw.layer, "layer"))
        case "renameLayer":
            return .renameLayer(try need(raw.layer, "layer"), try LayerName.optional(try need(raw.name, "name")))
        case "moveLayer":
            return .moveLayer(from: try need(raw.from, "from"), to: try need(raw.to, "to"))
        case "copyLayer":
            return .copyLayer(from: try need(raw.from, "from"), to: try need(raw.to, "to"))
        default:
            throw .invalidProfile("unknown operation '\(KeymapError.printable(raw.op))'")
        }
    }
}
