import KeyboardLinkBlueZ

/// The string characteristics of the Device Information Service (0x180A).
///
/// The raw value is the key of the field in the `Firmware` property of `org.kblink1.Keyboard`.
package enum DeviceInformationField: String, CaseIterable, Hashable, Sendable, Codable {
    /// 0x2A29 Manufacturer Name String.
    case manufacturer = "Manufacturer"
    /// 0x2A24 Model Number String.
    case model = "Model"
    /// 0x2A25 Serial Number String.
    case serial = "Serial"
    /// 0x2A26 Firmware Revision String.
    case firmwareRevision = "FirmwareRevision"
    /// 0x2A27 Hardware Revision String.
    case hardwareRevision = "HardwareRevision"
    /// 0x2A28 Software Revision String.
    case softwareRevision = "SoftwareRevision"

    /// The characteristic UUID.
    package var uuid: BluetoothUUID {
        switch self {
        case .manufacturer: .manufacturerName
        case .model: .modelNumber
        case .serial: .serialNumber
        case .firmwareRevision: .firmwareRevision
        case .hardwareRevision: .hardwareRevision
        case .softwareRevision: .softwareRevision
        }
    }

    /// The field whose characteristic has this UUID; nil for any other UUID.
    package init?(uuid: BluetoothUUID) {
        guard let field = Self.allCases.first(where: { $0.uuid == uuid }) else { return nil }
        self = field
    }

    /// The name used in notes: `manufacturer name`, `model number`, `serial number`, `firmware revision`...
    package var label: String {
        switch self {
        case .manufacturer: "manufacturer name"
        case .model: "model number"
        case .serial: "serial number"
        case .firmwareRevision: "firmware revision"
        case .hardwareRevision: "hardware revision"
        case .softwareRevision: "software revision"
        }
    }

    /// Decodes a characteristic value (UTF-8 text).
    ///
    /// The text ends at the first NUL (firmware often sends a NUL-padded buffer, sometimes with garbage after the
    /// terminator); surrounding white space is trimmed; an empty result is no value, without a note. Invalid UTF-8
    /// is decoded lossily (U+FFFD for each bad sequence) with the note `<label> is not valid UTF-8`; control
    /// characters (which could drive a terminal) become U+FFFD with the note `<label> contains control characters`.
    package func decode(_ bytes: [UInt8]) -> DecodedField<String> {
        let text = bytes.prefix { $0 != 0 }
        var notes: [String] = []
        var string: String
        if let valid = String(validating: text, as: UTF8.self) {
            string = valid
        } else {
            string = String(decoding: text, as: UTF8.self)
            notes.append("\(label) is not valid UTF-8")
        }
        string = string.trimmingWhiteSpace()
        if string.unicodeScalars.contains(where: \.isControlCharacter) {
            string = String(
                String.UnicodeScalarView(string.unicodeScalars.map { $0.isControlCharacter ? "\u{FFFD}" : $0 }))
            notes.append("\(label) contains control characters")
        }
        return DecodedField(
            value: string.isEmpty ? nil : string, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls.
    var isControlCharacter: Bool { value < 0x20 || (value >= 0x7F && value < 0xA0) }
}
