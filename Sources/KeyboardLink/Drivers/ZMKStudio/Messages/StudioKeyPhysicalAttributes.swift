/// `zmk.keymap.KeyPhysicalAttrs`: one key's size, position and rotation, in hundredths of a key unit
/// (rotation `r` in hundredths of a degree around `rx`, `ry`). All fields are `sint32` on the wire.
package struct StudioKeyPhysicalAttributes: ProtobufMessage, Hashable {
    /// Field 1.
    package var width: Int32
    /// Field 2.
    package var height: Int32
    /// Field 3.
    package var x: Int32
    /// Field 4.
    package var y: Int32
    /// Field 5.
    package var r: Int32
    /// Field 6.
    package var rx: Int32
    /// Field 7.
    package var ry: Int32

    /// Creates key attributes.
    package init(width: Int32, height: Int32, x: Int32, y: Int32, r: Int32 = 0, rx: Int32 = 0, ry: Int32 = 0) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.r = r
        self.rx = rx
        self.ry = ry
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeSInt32(width, field: 1)
        writer.writeSInt32(height, field: 2)
        writer.writeSInt32(x, field: 3)
        writer.writeSInt32(y, field: 4)
        writer.writeSInt32(r, field: 5)
        writer.writeSInt32(rx, field: 6)
        writer.writeSInt32(ry, field: 7)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        (width, height, x, y, r, rx, ry) = (0, 0, 0, 0, 0, 0, 0)
        while let field = try reader.nextField() {
            switch field {
            case 1: width = try reader.readSInt32()
            case 2: height = try reader.readSInt32()
            case 3: x = try reader.readSInt32()
            case 4: y = try reader.readSInt32()
            case 5: r = try reader.readSInt32()
            case 6: rx = try reader.readSInt32()
            case 7: ry = try reader.readSInt32()
            default: break
            }
        }
    }
}
