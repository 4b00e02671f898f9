/// A Bluetooth LE GAP Appearance value (BlueZ `Device1.Appearance`): a category in bits 6-15 and a
/// subcategory in bits 0-5.
package struct DeviceAppearance: Hashable, Sendable, CustomStringConvertible {
    /// The raw 16-bit value.
    package let rawValue: UInt16

    /// Wraps a raw value as BlueZ reports it.
    package init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// The category, `appearance >> 6` (0x00F is Human Interface Device).
    package var category: UInt16 { rawValue >> 6 }

    /// The subcategory, `appearance & 0x3F`.
    package var subcategory: UInt8 { UInt8(rawValue & 0x3F) }

    /// 0x0000: unknown appearance.
    package static let unknown = DeviceAppearance(0x0000)
    /// 0x03C0: generic Human Interface Device (category 0x00F, subcategory 0).
    package static let genericHID = DeviceAppearance(0x03C0)
    /// 0x03C1: keyboard.
    package static let keyboard = DeviceAppearance(0x03C1)
    /// 0x03C2: mouse.
    package static let mouse = DeviceAppearance(0x03C2)
    /// 0x03C3: joystick.
    package static let joystick = DeviceAppearance(0x03C3)
    /// 0x03C4: gamepad.
    package static let gamepad = DeviceAppearance(0x03C4)

    /// The category number of Human Interface Devices.
    static let hidCategory: UInt16 = 0x00F

    /// `0x03c1 (keyboard)` style text.
    package var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 4)
        return name.map { "\(hex) (\($0))" } ?? hex
    }

    /// The name of the HID subcategories and a few common categories; nil for the rest.
    package var name: String? {
        if category == Self.hidCategory {
            switch subcategory {
            case 0x00: return "generic HID"
            case 0x01: return "keyboard"
            case 0x02: return "mouse"
            case 0x03: return "joystick"
            case 0x04: return "gamepad"
            case 0x05: return "digitizer tablet"
            case 0x06: return "card reader"
            case 0x07: return "digital pen"
            case 0x08: return "barcode scanner"
            case 0x09: return "touchpad"
            case 0x0A: return "presentation remote"
            default: return "HID subcategory 0x" + String(subcategory, radix: 16)
            }
        }
        switch category {
        case 0x000: return "unknown"
        case 0x001: return "phone"
        case 0x002: return "computer"
        case 0x003: return "watch"
        case 0x021: return "audio sink"
        case 0x025: return "wearable audio device"
        default: return nil
        }
    }
}
