import KeyboardLinkKeymap

/// Writes a ZMK `.keymap`: the `#include`s it needs, the macros as `zmk,behavior-macro` nodes, and one layer node
/// per layer with `display-name` and `bindings` in key-position order (the layout's reading order), a line per
/// row of keys, columns aligned.
struct ZMKKeymapWriter {
    let content: KeymapFileContent
    let layout: PhysicalLayout
    let keyboard: String

    func text() throws(KeymapFileError) -> String {
        var lines: [String] = [
            "/*",
            " * \(Self.comment(keyboard)): layout \(layout.id), \(content.layers.count) layer(s), written by kblink.",
            " * Bindings are in key-position order, one line per row of keys.",
            " */",
            "",
            "#include <behaviors.dtsi>",
            "#include <dt-bindings/zmk/keys.h>",
            "",
            "/ {",
        ]
        if !content.macros.isEmpty {
            lines.append("    macros {")
            for (name, macro) in content.macros.sorted(by: { $0.key < $1.key }) {
                lines += try macroNode(name, macro)
            }
            lines.append("    };")
            lines.append("")
        }
        lines.append("    keymap {")
        lines.append("        compatible = \"zmk,keymap\";")
        let rows = KeymapFiles.rows(of: layout)
        var nodeNames: Set<String> = []
        for (index, layer) in content.layers.enumerated() {
            var nodeName = Self.nodeName(content.layerName(index), index: index)
            if !nodeNames.insert(nodeName).inserted {
                nodeName = "layer_\(index)"
                nodeNames.insert(nodeName)
            }
            lines.append("")
            lines.append("        \(nodeName) {")
            let displayName = index < content.layerNames.count ? content.layerNames[index] : ""
            lines.append(
                "            display-name = \"\(Self.escaped(displayName.isEmpty ? "Layer \(index)" : displayName))\";")
            lines.append("            bindings = <")
            var cells: [[String]] = []
            for row in rows {
                var line: [String] = []
                for key in row {
                    let action = layer[key.name] ?? Keymap.clearedAction(layer: index)
                    line.append(try Self.binding(action, key: key.name, layer: index))
                }
                cells.append(line)
            }
            let columns = cells.map(\.count).max() ?? 0
            let widths = (0..<columns).map { column in
                cells.compactMap { column < $0.count ? $0[column].count : nil }.max() ?? 0
            }
            for row in cells {
                var line = "                "
                for (column, cell) in row.enumerated() {
                    line += column == row.count - 1 ? cell : cell.padding(to: widths[column] + 2)
                }
                lines.append(line)
            }
            lines.append("            >;")
            lines.append("        };")
        }
        lines.append("    };")
        lines.append("};")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A binding in ZMK's spelling.
    /// - Throws: for actions ZMK's `keys.h` has no name for.
    static func binding(_ action: KeyAction, key: KeyName, layer: Int) throws(KeymapFileError) -> String {
        let text = action.formatted(.zmk)
        if case .qmkKeycode = action {
            throw KeymapFileError(
                line: 0, column: 0, "layer \(layer), key \(key): \(text) is a QMK keycode ZMK has no behaviour for")
        }
        if text.contains("KC_") || text.contains("HID(") || text.contains("?") {
            throw KeymapFileError(
                line: 0, column: 0, "layer \(layer), key \(key): ZMK's keys.h has no name for \(action)")
        }
        if case .macro(let name) = action, !isLabel(name.rawValue) {
            throw KeymapFileError(
                line: 0, column: 0,
                "layer \(layer), key \(key): macro \(name) is not a devicetree label (letters, "
                    + "digits and '_', not starting with a digit)")
        }
        return text
    }

    private func macroNode(_ name: MacroName, _ macro: Macro) throws(KeymapFileError) -> [String] {
        guard Self.isLabel(name.rawValue) else {
            throw KeymapFileError(
                line: 0, column: 0,
                "macro \(name) is not a devicetree label (letters, digits and '_', not starting with a digit)")
        }
        var bindings: [String] = []
        var mode = "tap"
        func key(_ press: KeyPress) throws(KeymapFileError) -> String {
            let text = KeyAction.key(press).formatted(.zmk)
            guard !text.contains("KC_"), !text.contains("HID(") else {
                throw KeymapFileError(line: 0, column: 0, "macro \(name): ZMK's keys.h has no name for \(press)")
            }
            return text
        }
        for step in MacroCharacters.unfolded(macro.steps) {
            switch step {
            case .tap(let press):
                bindings.append((mode == "tap" ? "" : "&macro_tap ") + (try key(press)))
                mode = "tap"
            case .press(let usage):
                bindings.append((mode == "press" ? "" : "&macro_press ") + (try key(KeyPress(usage))))
                mode = "press"
            case .release(let usage):
                bindings.append((mode == "release" ? "" : "&macro_release ") + (try key(KeyPress(usage))))
                mode = "release"
            case .delay(let milliseconds):
                bindings.append("&macro_wait_time \(milliseconds)")
            case .text:
                break  // unfolded above
            }
        }
        var lines = [
            "        \(name): \(name) {",
            "            compatible = \"zmk,behavior-macro\";",
            "            #binding-cells = <0>;",
        ]
        let cells = bindings.map { "<\($0)>" }.joined(separator: ", ")
        lines.append("            bindings = \(cells);")
        lines.append("        };")
        return lines
    }

    static func isLabel(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    /// A devicetree node name for a layer: its name in lower case, characters other than letters, digits and `_`
    /// as `_`, `layer_N` when nothing is left.
    static func nodeName(_ name: String, index: Int) -> String {
        var result = ""
        for scalar in name.lowercased().unicodeScalars.prefix(31) {
            let keep = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
            result.unicodeScalars.append(keep ? scalar : "_")
        }
        guard let first = result.unicodeScalars.first, ("a"..."z").contains(first) else { return "layer_\(index)" }
        return result
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text safe inside a `/* */` comment.
    static func comment(_ text: String) -> String {
        escaped(text).replacingOccurrences("*/", with: "* /")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
