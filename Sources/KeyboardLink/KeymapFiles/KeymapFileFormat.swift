import KeyboardLinkKeymap

/// The keymap file formats kblink reads and writes.
package enum KeymapFileFormat: String, CaseIterable, Sendable {
    /// A ZMK `.keymap` (devicetree with the C preprocessor's `#include` and `#define`).
    case zmk
    /// A QMK `keymap.json`, the shape `qmk c2json` writes.
    case qmk
    /// A Vial `.vil` layout backup.
    case vil
    /// keymap-drawer's keymap YAML (written only: it names legends, not actions).
    case keymapDrawer = "keymap-drawer"

    /// Whether kblink reads this format back (keymap-drawer's YAML holds legends only).
    package var isReadable: Bool { self != .keymapDrawer }

    /// The format a file's text is in, from its content: JSON with `layers` is QMK, JSON with `layout` and `uid`
    /// or `vial_protocol` is Vial, text with a `zmk,keymap` node or `bindings = <` is ZMK. Nil when none fits.
    package static func guess(from text: Substring) -> KeymapFileFormat? {
        let start = text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" })
        if start.hasPrefix("{") {
            if text.contains("\"vial_protocol\"") || (text.contains("\"uid\"") && text.contains("\"layout\"")) {
                return .vil
            }
            if text.contains("\"layers\"") { return .qmk }
            return nil
        }
        if text.contains("zmk,keymap") || text.contains("bindings") { return .zmk }
        return nil
    }
}

/// A refusal of a keymap file: where (line and column, both from 1) and why.
package struct KeymapFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    package var line: Int
    /// The column (in characters), from 1.
    package var column: Int
    /// Why.
    package var reason: String

    /// The longest reason, in characters: names quoted from a file are shortened to keep a refusal one line.
    package static let maximumReasonLength = 300

    /// A refusal at a place. The reason quotes text from a hostile file, so control characters become `?` (a
    /// terminal shows the refusal) and a reason longer than `maximumReasonLength` is cut with `…`.
    package init(line: Int, column: Int, _ reason: String) {
        self.line = line
        self.column = column
        var shown = String.UnicodeScalarView()
        for (index, scalar) in reason.unicodeScalars.enumerated() {
            if index == Self.maximumReasonLength {
                shown.append("…")
                break
            }
            let isControl = scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
            shown.append(isControl ? "?" : scalar)
        }
        self.reason = String(shown)
    }

    /// A refusal at a place.
    init(_ position: SourcePosition, _ reason: String) {
        self.init(line: position.line, column: position.column, reason)
    }

    /// `line L, column C: reason`.
    package var description: String { "line \(line), column \(column): \(reason)" }
}

/// A place in a file: line and column from 1.
struct SourcePosition: Equatable, Sendable {
    var line: Int
    var column: Int

    static let start = SourcePosition(line: 1, column: 1)
}

/// What a keymap file says and what it is written from: the bindings by layer (every key a layer names), the
/// layers' names and the macros.
package struct KeymapFileContent: Sendable, Equatable {
    /// Per layer, the action of each key the file binds.
    package var layers: [[KeyName: KeyAction]]
    /// The layers' names (`display-name` in ZMK), by layer; an empty name is none.
    package var layerNames: [String]
    /// The macros, by name.
    package var macros: [MacroName: Macro]

    /// Content as given.
    package init(layers: [[KeyName: KeyAction]], layerNames: [String] = [], macros: [MacroName: Macro] = [:]) {
        self.layers = layers
        self.layerNames = layerNames
        self.macros = macros
    }

    /// The content of a keymap, its layers named as `layerNames` says or else as the keymap names them.
    package init(_ keymap: Keymap, layerNames: [String]? = nil) {
        self.init(
            layers: keymap.layers,
            layerNames: layerNames ?? (0..<keymap.layerCount).map { keymap.layerName($0)?.rawValue ?? "" },
            macros: keymap.macros)
    }

    /// The keymap to import: these layers, macros and layer names (those that are valid ``LayerName``s), which
    /// `Keymap.validated(for:)` and kblinkd check again.
    package var keymap: Keymap {
        var names: [Int: LayerName] = [:]
        for (layer, text) in layerNames.enumerated() {
            if let name = try? LayerName.optional(text) { names[layer] = name }
        }
        return Keymap(layers: layers, macros: macros, layerNames: names)
    }

    /// The name of a layer for a file: its own when it has one, else `layer_N`.
    func layerName(_ index: Int) -> String {
        if index < layerNames.count, !layerNames[index].isEmpty { return layerNames[index] }
        return "layer_\(index)"
    }
}

/// Reads and writes keymap files for one physical layout.
package enum KeymapFiles {
    /// The largest keymap file read (real ones are a few KiB; Vial backups of big boards some hundred KiB).
    package static let maximumFileSize = 4 << 20

    /// Writes a keymap in a format.
    /// - Parameters:
    ///   - keyboard: the keyboard's name for the formats that record it (QMK's `keyboard`, comments).
    ///   - layoutFile: for keymap-drawer, the path of the physical layout's info.json written beside the YAML
    ///     (``physicalLayoutJSON(_:)``), named in its `layout`.
    /// - Throws: `KeymapFileError` (line 0) for what the format cannot hold: a QMK or Vial file cannot say an action
    ///   QMK has no keycode for.
    package static func write(
        _ content: KeymapFileContent, as format: KeymapFileFormat, layout: PhysicalLayout, keyboard: String,
        layoutFile: String? = nil
    ) throws(KeymapFileError) -> String {
        switch format {
        case .zmk: return try ZMKKeymapWriter(content: content, layout: layout, keyboard: keyboard).text()
        case .qmk: return try QMKKeymapFile.write(content, layout: layout, keyboard: keyboard)
        case .vil: return try VialKeymapFile.write(content, layout: layout)
        case .keymapDrawer:
            return KeymapDrawerWriter(content: content, layout: layout, keyboard: keyboard, layoutFile: layoutFile)
                .text()
        }
    }

    /// The physical layout as a QMK info.json, which keymap-drawer draws keys at (`keymap draw -j FILE`).
    package static func physicalLayoutJSON(_ layout: PhysicalLayout) -> String {
        KeymapDrawerWriter.physicalLayoutJSON(layout)
    }

    /// Reads a keymap file for a layout.
    /// - Parameter macroNames: the keyboard's macros in slot order: QMK and Vial files number their macros, and
    ///   macro N takes the name of the keyboard's macro N (`macro_N` past them).
    /// - Throws: `KeymapFileError` naming line, column and reason of the first thing kblink cannot represent.
    package static func read(
        _ text: String, as format: KeymapFileFormat, layout: PhysicalLayout, macroNames: [MacroName] = []
    ) throws(KeymapFileError) -> KeymapFileContent {
        guard text.utf8.count <= maximumFileSize else {
            throw KeymapFileError(line: 1, column: 1, "the file is larger than \(maximumFileSize >> 20) MiB")
        }
        switch format {
        case .zmk: return try ZMKKeymapReader(text: text, layout: layout).read()
        case .qmk: return try QMKKeymapFile.read(text, layout: layout, macroNames: macroNames)
        case .vil: return try VialKeymapFile.read(text, layout: layout, macroNames: macroNames)
        case .keymapDrawer:
            throw KeymapFileError(
                line: 1, column: 1,
                "keymap-drawer's YAML holds legends, not actions: kblink writes it but does not read it")
        }
    }

    /// The layout's keys grouped in rows (keys whose top edges are within half a key of the row's first), each row
    /// left to right; concatenated they are the layout's reading order, i.e. ZMK's key positions.
    static func rows(of layout: PhysicalLayout) -> [[PhysicalKey]] {
        var rows: [[PhysicalKey]] = []
        for key in layout.keys {
            if let first = rows.last?.first, abs(key.frame.y - first.frame.y) < 0.5 {
                rows[rows.count - 1].append(key)
            } else {
                rows.append([key])
            }
        }
        return rows
    }

    /// The names given to numbered (QMK, Vial) macros: the keyboard's macro names in slot order, then `macro_N`.
    static func macroName(_ index: Int, _ names: [MacroName]) -> MacroName? {
        if index < names.count { return names[index] }
        return try? MacroName("macro_\(index)")
    }
}
