/// A zone of a keyboard: a group of keys edited together.
package enum ZoneID: String, CaseIterable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The alphanumeric block with its modifiers and space bar.
    case standard
    /// The number pad.
    case number
    /// The function row (Escape, F1-F12 and the keys beside them).
    case function
    /// Arrows and the Insert/Home/Page Up/Delete/End/Page Down block.
    case navigation

    /// Reads a zone name (case-insensitive; `numpad` and `nav` are accepted too).
    /// - Throws: `KeymapError.unknownZone`.
    package init(parsing text: String) throws(KeymapError) {
        switch text.lowercased() {
        case "standard", "alpha", "alphanumeric": self = .standard
        case "number", "numpad", "numberpad", "keypad": self = .number
        case "function", "fn", "functions": self = .function
        case "navigation", "nav": self = .navigation
        default: throw .unknownZone(text)
        }
    }

    package var description: String { rawValue }

    package static func < (lhs: ZoneID, rhs: ZoneID) -> Bool { lhs.order < rhs.order }

    private var order: Int {
        switch self {
        case .standard: return 0
        case .number: return 1
        case .function: return 2
        case .navigation: return 3
        }
    }
}
