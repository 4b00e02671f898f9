/// A validated layer name (`Nav`, `Symbols`, `Fn`), shown by `keymap show`, written as ZMK's `display-name` and held
/// by ZMK Studio keyboards.
///
/// A name comes from people, files and keyboards, so it is checked before anything keeps it: 1 to
/// ``maximumLength`` bytes of UTF-8 (Swift strings are valid Unicode; bytes from a keyboard are decoded strictly
/// before they become one), no control or format characters (no newlines, escapes, bidirectional overrides), no
/// leading or trailing white space. An empty name is no name: callers hold `LayerName?`.
package struct LayerName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The most UTF-8 bytes a name may have (ZMK Studio's default `CONFIG_ZMK_KEYMAP_LAYER_NAME_MAX_LEN` is 20; a
    /// devicetree `display-name` may be longer).
    package static let maximumLength = 64

    /// The validated text.
    package let rawValue: String

    /// Validates a layer name.
    /// - Throws: `KeymapError.invalidEdit` saying what is wrong.
    package init(_ rawValue: String) throws(KeymapError) {
        let bytes = rawValue.utf8.count
        guard bytes > 0 else { throw .invalidEdit("a layer name is not empty (an empty name clears it)") }
        guard bytes <= Self.maximumLength else {
            throw .invalidEdit("a layer name has at most \(Self.maximumLength) bytes of UTF-8; this one has \(bytes)")
        }
        for scalar in rawValue.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                throw .invalidEdit(
                    "a layer name holds no control or format characters; found U+"
                        + String(scalar.value, radix: 16, uppercase: true))
            default: continue
            }
        }
        guard let first = rawValue.unicodeScalars.first, let last = rawValue.unicodeScalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace
        else { throw .invalidEdit("a layer name does not start or end with white space") }
        self.rawValue = rawValue
    }

    /// A name from text where empty means none.
    /// - Throws: `KeymapError.invalidEdit` for text that is not empty and not a valid name.
    package static func optional(_ text: String) throws(KeymapError) -> LayerName? {
        text.isEmpty ? nil : try LayerName(text)
    }

    /// A name from bytes a keyboard sent: nil for none, for bytes that are not UTF-8 or not a valid name.
    package init?(validatingUTF8 bytes: some Collection<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self), let name = try? LayerName(text) else { return nil }
        self = name
    }

    package var description: String { rawValue }

    package static func < (lhs: LayerName, rhs: LayerName) -> Bool { lhs.rawValue < rhs.rawValue }
}
