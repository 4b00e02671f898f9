/// A battery charge in percent, 0 to 100.
package struct BatteryLevel: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The percentage, 0...100.
    package let percentage: UInt8

    /// Validates a percentage.
    /// - Throws: ``FirmwareValueError/batteryLevelOutOfRange(_:)`` above 100.
    package init(percentage: UInt8) throws(FirmwareValueError) {
        guard percentage <= 100 else { throw .batteryLevelOutOfRange(percentage) }
        self.percentage = percentage
    }

    /// Decodes a Battery Level characteristic value (0x2A19): exactly one byte, 0...100.
    /// - Throws: ``FirmwareValueError/batteryLevelLength(_:)`` unless there is one byte,
    ///   ``FirmwareValueError/batteryLevelOutOfRange(_:)`` above 100.
    package init(characteristicValue bytes: [UInt8]) throws(FirmwareValueError) {
        guard bytes.count == 1, let byte = bytes.first else { throw .batteryLevelLength(bytes.count) }
        try self.init(percentage: byte)
    }

    /// Decodes and validates a cached percentage.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(UInt8.self)
        do {
            try self.init(percentage: value)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the percentage as a number.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(percentage)
    }

    /// `80%`.
    package var description: String { "\(percentage)%" }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.percentage < rhs.percentage }
}
