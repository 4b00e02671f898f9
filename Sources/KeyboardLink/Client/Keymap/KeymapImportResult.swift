import KBlinkAPI
import KeyboardLinkDBus

/// The answer of `org.kblink1.Keymap.ImportProfile`: what the import changed in the draft.
public struct KeymapImportResult: Sendable, Equatable {
    /// One binding changed: layer, key, old and new action (QMK spelling).
    public struct Change: Sendable, Equatable {
        public var layer: Int
        public var key: String
        public var old: String
        public var new: String
    }

    /// One macro added, changed or removed (an empty definition for absent).
    public struct MacroChange: Sendable, Equatable {
        public var name: String
        public var old: String
        public var new: String
    }

    /// Whether every binding and macro was replaced (`replace` option).
    public var replaced: Bool
    /// Keys cleared because the profile leaves them out (replacing imports only).
    public var cleared: Int
    /// The bindings changed, in layer then reading order.
    public var changes: [Change]
    /// The macros changed, by name.
    public var macros: [MacroChange]

    /// Reads the `a{sv}` answer; missing keys read as empty.
    public init(_ values: [String: DBusValue]) {
        replaced = values["replaced"]?.unwrapped == .boolean(true)
        cleared = Int(values["cleared"]?.unwrapped.integerValue ?? 0)
        changes = []
        macros = []
        if case .array(_, let rows)? = values["changes"]?.unwrapped {
            for row in rows {
                guard case .structure(let fields) = row, fields.count == 4, let layer = fields[0].integerValue,
                    let key = fields[1].stringValue, let old = fields[2].stringValue, let new = fields[3].stringValue
                else { continue }
                changes.append(Change(layer: Int(layer), key: key, old: old, new: new))
            }
        }
        if case .array(_, let rows)? = values["macros"]?.unwrapped {
            for row in rows {
                guard case .structure(let fields) = row, fields.count == 3, let name = fields[0].stringValue,
                    let old = fields[1].stringValue, let new = fields[2].stringValue
                else { continue }
                macros.append(MacroChange(name: name, old: old, new: new))
            }
        }
    }
}

extension KeymapClient {
    /// `ImportProfile`: stages a profile as one edit, merged into the draft, or replacing it with `replace`.
    @discardableResult
    public func importProfile(_ json: String, replace: Bool = false) async throws -> KeymapImportResult {
        KeymapImportResult(
            try await proxy.call(KBlinkContract.Keymap.importProfile, json, ["replace": .boolean(replace)]))
    }

    /// `AddLayer`: inserts a transparent layer at `layer` (1 up to the layer count).
    public func addLayer(_ layer: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.addLayer, UInt32(clamping: layer))
    }

    /// `RemoveLayer`: removes a layer no other layer switches to.
    public func removeLayer(_ layer: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.removeLayer, UInt32(clamping: layer))
    }
}
