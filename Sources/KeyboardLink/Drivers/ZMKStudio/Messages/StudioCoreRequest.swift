/// `zmk.core.Request`.
package enum StudioCoreRequest: ProtobufMessage, Equatable {
    /// Field 1: name and serial number (allowed while locked).
    case getDeviceInfo
    /// Field 2: the lock state (allowed while locked).
    case getLockState
    /// Field 3: lock the keyboard again.
    case lock
    /// Field 4: reset all Studio settings to the firmware's defaults.
    case resetSettings

    private var fieldNumber: Int {
        switch self {
        case .getDeviceInfo: 1
        case .getLockState: 2
        case .lock: 3
        case .resetSettings: 4
        }
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeBool(true, field: fieldNumber, emitDefault: true)
    }

    /// - Throws: ProtobufError.missingField when no known request is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioCoreRequest?
        while let field = try reader.nextField() {
            let request: StudioCoreRequest? =
                switch field {
                case 1: .getDeviceInfo
                case 2: .getLockState
                case 3: .lock
                case 4: .resetSettings
                default: nil
                }
            if let request {
                _ = try reader.readBool()
                decoded = request
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.core.Request", field: "request_type") }
        self = decoded
    }
}
