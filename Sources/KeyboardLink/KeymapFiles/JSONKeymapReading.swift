import KeyboardLinkKeymap

/// What the QMK and Vial readers share: a parsed document whose values refuse with their line and column.
struct JSONKeymapDocument {
    let bytes: [UInt8]
    let root: PositionedJSON

    init(_ text: String) throws(KeymapFileError) {
        bytes = Array(text.utf8)
        root = try PositionedJSON.parse(bytes)
        guard case .object = root else { throw error(at: root, "the file is \(root.kind), not a JSON object") }
    }

    func error(at value: PositionedJSON, _ reason: String) -> KeymapFileError {
        KeymapFileError(PositionedJSON.position(of: value.offset, in: bytes), reason)
    }

    /// A member the format requires.
    func member(_ key: String, of object: PositionedJSON? = nil) throws(KeymapFileError) -> PositionedJSON {
        let object = object ?? root
        guard let value = object[key] else { throw error(at: object, "there is no \"\(key)\"") }
        return value
    }

    func array(_ value: PositionedJSON, _ what: String) throws(KeymapFileError) -> [PositionedJSON] {
        guard case .array(let elements, _) = value else {
            throw error(at: value, "\(what) is \(value.kind), not a list")
        }
        return elements
    }

    func string(_ value: PositionedJSON, _ what: String) throws(KeymapFileError) -> String {
        guard case .string(let text, _) = value else {
            throw error(at: value, "\(what) is \(value.kind), not a string")
        }
        return text
    }

    func integer(_ value: PositionedJSON, _ what: String, in range: ClosedRange<Int>) throws(KeymapFileError) -> Int {
        guard case .number(let text, _) = value, let number = Int(text), range.contains(number) else {
            throw error(at: value, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A QMK keycode string as an action: QMK's spellings, `QK_MACRO_N`/`MACRO_N`/`M<N>` as macro N (named after
    /// the keyboard's macro N).
    func action(
        _ value: PositionedJSON, _ where_: String, macroNames: [MacroName], macroCount: Int, layerCount: Int
    ) throws(KeymapFileError) -> KeyAction {
        let text: String
        switch value {
        case .string(let string, _): text = string
        case .number(let number, _):
            // Older Vial files store the 16-bit keycode itself.
            guard let code = UInt16(number) else {
                throw error(at: value, "\(where_): \(number) is not a 16-bit QMK keycode")
            }
            return try checked(
                KeyAction(
                    qmkKeycode: code,
                    macroNames: (0..<max(macroCount, 0)).compactMap {
                        KeymapFiles.macroName($0, macroNames)
                    }), value, where_, layerCount: layerCount)
        default:
            throw error(at: value, "\(where_) is \(value.kind), not a keycode string")
        }
        for prefix in ["QK_MACRO_", "MACRO_", "M"] where text.hasPrefix(prefix) {
            if let index = Int(text.dropFirst(prefix.count)), (0..<128).contains(index) {
                guard index < macroCount else {
                    throw error(at: value, "\(where_): \(text) plays macro \(index), which the file does not define")
                }
                guard let name = KeymapFiles.macroName(index, macroNames) else {
                    throw error(at: value, "\(where_): macro \(index) has no name")
                }
                return .macro(name)
            }
        }
        let action: KeyAction
        do {
            action = try KeyAction(parsing: text)
        } catch {
            throw self.error(at: value, "\(where_): \(error.description)")
        }
        return try checked(action, value, where_, layerCount: layerCount)
    }

    private func checked(_ action: KeyAction, _ value: PositionedJSON, _ where_: String, layerCount: Int)
        throws(KeymapFileError) -> KeyAction
    {
        if let layer = action.referencedLayer, layer >= layerCount {
            throw error(at: value, "\(where_): \(action) switches to layer \(layer); the file has \(layerCount) layers")
        }
        if case .macro(let name) = action {
            // kblink's own MACRO(name) spelling names a macro; the file's macros are numbered.
            throw error(
                at: value, "\(where_): \(action) is kblink's spelling; this file plays macro N as QK_MACRO_N (\(name))")
        }
        return action
    }
}
