/// `zmk.core.GetDeviceInfoResponse`: the keyboard's name and hardware serial number.
public struct StudioDeviceInfo: ProtobufMessage, Equatable {
    /// Field 1: `CONFIG_ZMK_KEYBOARD_NAME`.
    public var name: String
    /// Field 2: the controller's hardware id, raw bytes (empty when the firmware has none).
    public var serialNumber: [UInt8]

    /// Creates device info.
    public init(name: String, serialNumber: [UInt8]) {
        self.name = name
        self.serialNumber = serialNumber
    }

    /// The serial number as lowercase hex, the way people compare it.
    public var serialNumberHex: String {
        serialNumber.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    public func encode(to writer: inout ProtobufWriter) {
        writer.writeString(name, field: 1)
        writer.writeBytes(serialNumber, field: 2)
    }

    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
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
