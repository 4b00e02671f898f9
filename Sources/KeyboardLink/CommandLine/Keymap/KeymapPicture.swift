import KeyboardLinkClient
import KeyboardLinkKeymap

/// A keyboard drawn in the terminal: each key a box at its physical place (x and width in key units scaled to
/// columns, two lines per key unit of height), labelled with what it does on one layer.
///
/// Zones are told apart by colour on a terminal, and otherwise by a tag in each key's top edge (`f` function,
/// `n` navigation, `#` number; standard keys have none), explained in the legend. Keys the draft changed are
/// marked `*` (and highlighted in colour). Keys left without a label (`label` nil) are drawn empty, dim in
/// colour: `kblink keymap show --zone` uses that to show one zone in its place on the board.
package struct KeymapPicture: Sendable {
    /// One key to draw.
    package struct Key: Sendable, Equatable {
        /// The key's place.
        package var info: KeymapKeyInfo
        /// What to write in it (the action text); nil leaves the key empty.
        package var action: String?
        /// Whether the draft changed it.
        package var changed: Bool
        /// Whether `action` is drawn as it is (a key name), not shortened as an action.
        package var verbatim: Bool

        /// Creates a key.
        package init(info: KeymapKeyInfo, action: String?, changed: Bool, verbatim: Bool = false) {
            self.info = info
            self.action = action
            self.changed = changed
            self.verbatim = verbatim
        }
    }

    /// The keys.
    package var keys: [Key]
    /// Plain ASCII (`+ - |`) instead of box-drawing characters.
    package var ascii: Bool
    /// ANSI colours (only for terminals).
    package var usesColor: Bool
    /// Columns per key unit of width (4 to 12).
    package var columnsPerUnit: Int

    /// Creates a picture.
    package init(keys: [Key], ascii: Bool = false, usesColor: Bool = false, columnsPerUnit: Int = 6) {
        self.keys = keys
        self.ascii = ascii
        self.usesColor = usesColor
        self.columnsPerUnit = min(max(columnsPerUnit, 4), 12)
    }

    /// The columns per key unit that fit a keyboard into `width` columns (between 4 and 7).
    package static func columnsPerUnit(fitting keys: [KeymapKeyInfo], into width: Int) -> Int {
        let left = keys.map(\.x).min() ?? 0
        let right = keys.map { $0.x + $0.width }.max() ?? 1
        let units = max(right - left, 1)
        let fitting = Int((Double(width - 1) / units).rounded(.down))
        return min(max(fitting, 4), 7)
    }

    /// The picture and its legend, as lines.
    package func render() -> [String] {
        let placed = keys.filter { key in
            [key.info.x, key.info.y, key.info.width, key.info.height].allSatisfy { $0.isFinite && abs($0) < 1_000 }
                && key.info.width > 0 && key.info.height > 0
        }
        guard !placed.isEmpty else { return ["(no keys to draw)"] }
        let scale = Double(columnsPerUnit)
        let originX = placed.map(\.info.x).min() ?? 0
        let originY = placed.map(\.info.y).min() ?? 0
        func column(_ x: Double) -> Int { Int(((x - originX) * scale).rounded()) }
        func line(_ y: Double) -> Int { Int(((y - originY) * 2).rounded()) }
        struct Frame {
            var left, top, right, bottom: Int
        }
        let frames = placed.map { key -> Frame in
            let left = column(key.info.x)
            let top = line(key.info.y)
            return Frame(
                left: left, top: top, right: max(column(key.info.x + key.info.width), left + 2),
                bottom: max(line(key.info.y + key.info.height), top + 2))
        }
        var canvas = BoxCanvas(
            width: (frames.map(\.right).max() ?? 0) + 1, height: (frames.map(\.bottom).max() ?? 0) + 1)
        for (key, frame) in zip(placed, frames) {
            canvas.box(
                left: frame.left, top: frame.top, right: frame.right, bottom: frame.bottom,
                color: key.action == nil ? "2" : Self.zoneColor(key.info.zone))
        }
        for (key, frame) in zip(placed, frames) {
            let inside = frame.right - frame.left - 1
            if !usesColor, let tag = Self.zoneTag(key.info.zone) {
                canvas.write(String(tag), column: frame.left + 1, line: frame.top, limit: inside, color: nil)
            }
            guard let action = key.action else { continue }
            var label = key.verbatim ? action : Self.label(forAction: action, ascii: ascii)
            if key.changed { label = "*" + label }
            label = Self.fit(label, width: inside, ascii: ascii)
            let start = frame.left + 1 + (inside - label.count) / 2
            let color = key.changed ? "1;33" : Self.zoneColor(key.info.zone)
            canvas.write(label, column: start, line: (frame.top + frame.bottom) / 2, limit: inside, color: color)
        }
        return canvas.lines(ascii: ascii, colors: usesColor) + legend(placed)
    }

    /// The lines under the picture: zones, the change mark, the short spellings.
    private func legend(_ placed: [Key]) -> [String] {
        let zones = ZoneID.allCases.map(\.rawValue).filter { zone in placed.contains { $0.info.zone == zone } }
        var lines: [String] = []
        if usesColor {
            let names = zones.map { zone in
                Self.zoneColor(zone).map { "\u{1B}[\($0)m\(zone)\u{1B}[0m" } ?? zone
            }
            lines.append("Zones: " + names.joined(separator: "  "))
        } else {
            let tagged = zones.compactMap { zone in Self.zoneTag(zone).map { "\($0) \(zone)" } }
            let plain = zones.filter { Self.zoneTag($0) == nil }
            var text = "Zones: " + (tagged + plain.map { "untagged \($0)" }).joined(separator: ", ")
            if !tagged.isEmpty { text += " (tag in the key's top edge)" }
            lines.append(text)
        }
        let changed = placed.filter(\.changed).count
        let transparent = ascii ? "trns" : "▽"
        let nothing = ascii ? "no" : "✕"
        lines.append(
            (changed > 0 ? "* changed in the draft (\(changed) key\(changed == 1 ? "" : "s"))   " : "")
                + "\(transparent) transparent   \(nothing) nothing   KC_ left out of key codes")
        return lines
    }

    /// The colour (SGR parameters) of a zone; nil for the standard zone.
    static func zoneColor(_ zone: String) -> String? {
        switch zone {
        case "function": return "35"
        case "navigation": return "36"
        case "number": return "32"
        default: return nil
        }
    }

    /// The tag of a zone in plain pictures; nil for the standard zone.
    static func zoneTag(_ zone: String) -> Character? {
        switch zone {
        case "function": return "f"
        case "navigation": return "n"
        case "number": return "#"
        default: return nil
        }
    }

    /// The short form of an action for a key cap: `KC_` left out, transparent and nothing as symbols.
    package static func label(forAction action: String, ascii: Bool) -> String {
        switch action {
        case "KC_TRNS", "KC_TRANSPARENT", "_______": return ascii ? "trns" : "▽"
        case "KC_NO", "XXXXXXX": return ascii ? "no" : "✕"
        default: break
        }
        var text = action.replacingEvery("KC_", with: "")
        if text.hasPrefix("MACRO(") { text = "M(" + text.dropFirst(6) }
        return text.filter { !$0.isWhitespace || $0 == " " }
    }

    /// Cuts a label to a width, marking the cut.
    static func fit(_ label: String, width: Int, ascii: Bool) -> String {
        guard width > 0 else { return "" }
        guard label.count > width else { return label }
        return String(label.prefix(width - 1)) + (ascii ? "." : "…")
    }
}
