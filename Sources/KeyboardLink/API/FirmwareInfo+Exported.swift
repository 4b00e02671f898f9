import KeyboardLinkFirmware
import KeyboardLinkSupport

extension FirmwareInfo {
    /// The key of the read time in the exported `Firmware` property: ISO 8601 in UTC, to the second
    /// (`2026-11-29T12:18:42Z`).
    public static let readAtKey = "ReadAt"
    /// The key of the notes in the exported `Firmware` property: one note per line.
    public static let notesKey = "Notes"

    /// The `Firmware` property (`a{ss}`) as kblinkd exports it: ``firmwareProperty`` plus `ReadAt` (when the values
    /// were read) and `Notes` (what was wrong with them, one per line; absent when nothing was).
    public var exportedProperty: [String: String] {
        var result = firmwareProperty
        result[Self.readAtKey] = readAt.iso8601
        if !notes.isEmpty {
            result[Self.notesKey] = notes.map { String($0.map { $0 == "\n" ? " " : $0 }) }.joined(separator: "\n")
        }
        return result
    }

    /// The read time in an exported `Firmware` property; nil when absent or malformed.
    public static func readAt(inExportedProperty property: [String: String]) -> WallClockTime? {
        guard let text = property[readAtKey] else { return nil }
        return WallClockTime(iso8601: text)
    }

    /// The notes in an exported `Firmware` property, in order; empty when there are none.
    public static func notes(inExportedProperty property: [String: String]) -> [String] {
        guard let text = property[notesKey] else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
