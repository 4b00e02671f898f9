/// A whole VIA dynamic keymap: `layers x rows x columns` 16-bit keycodes, in the order of the keyboard's buffer.
package struct VIAKeymap: Hashable, Sendable {
    /// Number of layers.
    package let layers: Int
    /// Matrix rows (from the keyboard's definition; VIA's protocol does not report them).
    package let rows: Int
    /// Matrix columns (from the keyboard's definition).
    package let columns: Int
    /// Every keycode, layer-major, then row, then column.
    package private(set) var keycodes: [UInt16]

    /// The largest keymap VIA's 16-bit buffer offsets can address, in keycodes.
    package static let maximumKeycodeCount = 0x1_0000 / 2

    /// Creates a keymap filled with `fill` (0 is KC_NO).
    /// - Throws: VIAClientError.invalidKeymapGeometry when a dimension is outside 1...255 or the total exceeds
    ///   what VIA can address.
    package init(layers: Int, rows: Int, columns: Int, fill: UInt16 = 0) throws(VIAClientError) {
        try Self.checkGeometry(layers: layers, rows: rows, columns: columns)
        self.layers = layers
        self.rows = rows
        self.columns = columns
        keycodes = Array(repeating: fill, count: layers * rows * columns)
    }

    /// Creates a keymap from the keyboard's buffer (big-endian keycodes).
    /// - Throws: VIAClientError.invalidKeymapGeometry for bad dimensions or a buffer of the wrong size.
    package init(bufferBytes: [UInt8], layers: Int, rows: Int, columns: Int) throws(VIAClientError) {
        try self.init(layers: layers, rows: rows, columns: columns)
        guard bufferBytes.count == keycodes.count * 2 else {
            throw .invalidKeymapGeometry("buffer of \(bufferBytes.count) bytes for \(keycodes.count) keycodes")
        }
        for index in keycodes.indices {
            keycodes[index] = UInt16(bufferBytes[2 * index]) << 8 | UInt16(bufferBytes[2 * index + 1])
        }
    }

    /// The keyboard buffer's bytes: each keycode big-endian.
    package var bufferBytes: [UInt8] {
        keycodes.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Whether `position` lies inside the keymap.
    package func contains(_ position: VIAKeyPosition) -> Bool {
        Int(position.layer) < layers && Int(position.row) < rows && Int(position.column) < columns
    }

    /// The keycode at `position`, nil outside the keymap.
    package func keycode(at position: VIAKeyPosition) -> UInt16? {
        guard contains(position) else { return nil }
        return keycodes[index(of: position)]
    }

    /// Sets the keycode at `position`.
    /// - Throws: VIAClientError.positionOutsideKeymap when `position` is outside the keymap.
    package mutating func setKeycode(_ keycode: UInt16, at position: VIAKeyPosition) throws(VIAClientError) {
        guard contains(position) else { throw .positionOutsideKeymap(position) }
        keycodes[index(of: position)] = keycode
    }

    /// The index of `position` in `keycodes` (its byte offset in the buffer is twice that).
    package func index(of position: VIAKeyPosition) -> Int {
        (Int(position.layer) * rows + Int(position.row)) * columns + Int(position.column)
    }

    /// The position of keycode number `index`.
    package func position(ofIndex index: Int) -> VIAKeyPosition {
        VIAKeyPosition(
            layer: UInt8(truncatingIfNeeded: index / (rows * columns)),
            row: UInt8(truncatingIfNeeded: (index / columns) % rows),
            column: UInt8(truncatingIfNeeded: index % columns))
    }

    /// What to write to turn `old` into `self`, in buffer order; empty when they are equal.
    /// - Throws: VIAClientError.invalidKeymapGeometry when the two keymaps differ in shape.
    package func changes(from old: VIAKeymap) throws(VIAClientError) -> [VIAKeycodeChange] {
        guard (old.layers, old.rows, old.columns) == (layers, rows, columns) else {
            throw .invalidKeymapGeometry(
                "comparing a \(layers)x\(rows)x\(columns) keymap with a \(old.layers)x\(old.rows)x\(old.columns) one")
        }
        return keycodes.indices.filter { keycodes[$0] != old.keycodes[$0] }.map {
            VIAKeycodeChange(position: position(ofIndex: $0), keycode: keycodes[$0])
        }
    }

    private static func checkGeometry(layers: Int, rows: Int, columns: Int) throws(VIAClientError) {
        for (name, value) in [("layers", layers), ("rows", rows), ("columns", columns)] where !(1...255).contains(value)
        {
            throw .invalidKeymapGeometry("\(name) = \(value), expected 1...255")
        }
        guard layers * rows * columns <= maximumKeycodeCount else {
            throw .invalidKeymapGeometry("\(layers * rows * columns) keycodes exceed VIA's 64 KiB buffer")
        }
    }
}
