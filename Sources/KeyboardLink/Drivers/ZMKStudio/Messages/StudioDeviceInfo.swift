/// `zmk.core.GetDeviceInfoResponse`: the keyboard's name and hardware serial number.
package struct StudioDeviceInfo: ProtobufMessage, Equatable {
    /// Field 1: `CONFIG_ZMK_KEYBOARD_NAME`.
    package var name: String
    /// Field 2: the controller's hardware id, raw bytes (empty when the firmware has none).
    package var serialNumber: [UInt8]

    /// Creates device info.
    package init(name: String, serialNumber: [UInt8]) {
        self.name = name
        self.serialNumber = serialNumber
    }

    /// The serial number as lowercase hex, the way people compare it.
    package var serialNumberHex: String {
        serialNumber.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeString(name, field: 1)
        writer.writeBytes(serialNumber, field: 2)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        name = ""
        serialNumber = []
        while let field = try reader.nextField() {
            switch field {
            case 1: name = try reader.readString()
            case 2: serialNumber = try reader.readBytes()
            default: break
            }
        }
    }
}
