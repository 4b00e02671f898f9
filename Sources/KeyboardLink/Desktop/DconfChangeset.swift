/// The blob `ca.desrt.dconf.Writer.Change` takes: a changeset serialized as the GVariant `a{smv}` (key, and the
/// new value or nothing to reset it), in GVariant's own serialization (not D-Bus's), as dconf's
/// `dconf_changeset_serialise` makes it.
///
/// For one entry the serialization is: the key and a zero byte; zero bytes up to a multiple of 8 (the alignment of
/// `mv`); the maybe-variant (empty for nothing; else the value's bytes, a zero byte, the type string, and a zero
/// byte closing the maybe); then the entry's framing offset (where the key ends); then the array's framing offset
/// (where the entry ends). Offsets are 1 byte while the container is under 256 bytes, 2 under 64 KiB.
package struct DconfChangeset: Hashable, Sendable {
    /// The key (`/org/gnome/desktop/a11y/applications/screen-keyboard-enabled`).
    package var key: String
    /// The new value; nil resets the key (the schema's default applies again).
    package var value: Bool?

    /// A change of one boolean key.
    /// - Throws: ``DconfError/invalidKey(_:)`` for a key that is not `/path/to/key`.
    package init(key: String, value: Bool?) throws(DconfError) {
        guard key.hasPrefix("/"), !key.hasSuffix("/"), !key.contains("//"), key.utf8.count <= 1024,
            !key.utf8.contains(0)
        else { throw .invalidKey(key) }
        self.key = key
        self.value = value
    }

    /// The serialized `a{smv}`.
    package var serialized: [UInt8] {
        var entry = Array(key.utf8) + [0]
        let keyEnd = entry.count
        while entry.count % 8 != 0 { entry.append(0) }
        if let value {
            entry += [value ? 1 : 0, 0, UInt8(ascii: "b"), 0]
        }
        entry += Self.offset(keyEnd, containerBody: entry.count, offsets: 1)
        let entryEnd = entry.count
        return entry + Self.offset(entryEnd, containerBody: entry.count, offsets: 1)
    }

    /// A framing offset in the width GVariant picks for a container of `containerBody` bytes and `offsets` offsets.
    static func offset(_ value: Int, containerBody: Int, offsets: Int) -> [UInt8] {
        let width = containerBody + offsets <= 0xFF ? 1 : containerBody + 2 * offsets <= 0xFFFF ? 2 : 4
        return (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
