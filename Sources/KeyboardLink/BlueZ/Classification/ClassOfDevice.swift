/// A Bluetooth Class of Device (BlueZ `Device1.Class`, 24 bits): service classes, a major and a minor class.
///
/// Layout (Bluetooth Assigned Numbers, "Class of Device"): bits 0-1 format type, bits 2-7 minor class,
/// bits 8-12 major class, bits 13-23 service classes.
package struct ClassOfDevice: Hashable, Sendable, CustomStringConvertible {
    /// The raw 24-bit value (higher bits are ignored).
    package let rawValue: UInt32

    /// Wraps a raw value as BlueZ reports it.
    package init(_ rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    /// The major device class, `(cod >> 8) & 0x1F`.
    package var majorClass: MajorClass { MajorClass(rawValue: UInt8((rawValue >> 8) & 0x1F)) }

    /// The 6-bit minor class field, `(cod >> 2) & 0x3F`; its meaning depends on the major class.
    package var minorField: UInt8 { UInt8((rawValue >> 2) & 0x3F) }

    /// For a peripheral: the keyboard bit (`cod & 0x40`).
    package var hasKeyboardBit: Bool { majorClass == .peripheral && rawValue & 0x40 != 0 }

    /// For a peripheral: the pointing-device bit (`cod & 0x80`).
    package var hasPointingBit: Bool { majorClass == .peripheral && rawValue & 0x80 != 0 }

    /// For a peripheral: the device subtype in bits 2-5 (1 joystick, 2 gamepad, 3 remote control,
    /// 4 sensing device, 5 digitizer tablet, 6 card reader, 7 digital pen, 8 scanner, 9 wand).
    package var peripheralSubtype: UInt8 { UInt8((rawValue >> 2) & 0x0F) }

    /// `0x002540` style text.
    package var description: String { "0x" + String(rawValue, radix: 16).leftPadded(to: 6) }

    /// The major device classes of the Bluetooth assigned numbers.
    package struct MajorClass: Hashable, Sendable, CustomStringConvertible {
        /// The 5-bit value.
        package let rawValue: UInt8

        /// Wraps a 5-bit value.
        package init(rawValue: UInt8) { self.rawValue = rawValue & 0x1F }

        /// 0x00: no specific class.
        package static let miscellaneous = MajorClass(rawValue: 0x00)
        /// 0x01: desktop, laptop, server...
        package static let computer = MajorClass(rawValue: 0x01)
        /// 0x02: cellular phone, smartphone...
        package static let phone = MajorClass(rawValue: 0x02)
        /// 0x03: LAN / network access point.
        package static let networkAccessPoint = MajorClass(rawValue: 0x03)
        /// 0x04: headset, speaker, headphones...
        package static let audioVideo = MajorClass(rawValue: 0x04)
        /// 0x05: keyboard, mouse, joystick...
        package static let peripheral = MajorClass(rawValue: 0x05)
        /// 0x06: printer, scanner, camera, display.
        package static let imaging = MajorClass(rawValue: 0x06)
        /// 0x07: watch, glasses...
        package static let wearable = MajorClass(rawValue: 0x07)
        /// 0x08: toys.
        package static let toy = MajorClass(rawValue: 0x08)
        /// 0x09: health devices.
        package static let health = MajorClass(rawValue: 0x09)
        /// 0x1F: device code not specified.
        package static let uncategorized = MajorClass(rawValue: 0x1F)

        package var description: String {
            switch rawValue {
            case 0x00: "miscellaneous"
            case 0x01: "computer"
            case 0x02: "phone"
            case 0x03: "network access point"
            case 0x04: "audio/video"
            case 0x05: "peripheral"
            case 0x06: "imaging"
            case 0x07: "wearable"
            case 0x08: "toy"
            case 0x09: "health"
            case 0x1F: "uncategorized"
            default: "reserved major class 0x" + String(rawValue, radix: 16)
            }
        }
    }
}
