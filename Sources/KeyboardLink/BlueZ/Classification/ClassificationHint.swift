/// One piece of evidence about what a device is, read from one `Device1` property.
package struct ClassificationHint: Hashable, Sendable, CustomStringConvertible {
    /// The property the hint comes from.
    package enum Source: String, Hashable, Sendable {
        case classOfDevice = "Class"
        case appearance = "Appearance"
        case icon = "Icon"
        case serviceUUID = "UUID"
    }

    /// What the hint says about the device.
    package enum Meaning: String, Hashable, Sendable {
        /// It has a keyboard.
        case keyboard
        /// It has a pointing device (a mouse, a touchpad).
        case pointer
        /// It is an input (HID) device of no stated kind.
        case input
        /// It is something else: a phone, a headset, a gamepad, a computer...
        case otherDevice = "other device"
    }

    /// The property.
    package let source: Source
    /// What it says.
    package let meaning: Meaning
    /// The value and how it was read, for logs: `0x002540: peripheral, keyboard bit`.
    package let detail: String

    /// Creates a hint.
    package init(source: Source, meaning: Meaning, detail: String) {
        self.source = source
        self.meaning = meaning
        self.detail = detail
    }

    /// `Class 0x002540: peripheral, keyboard bit`.
    package var description: String { "\(source.rawValue) \(detail)" }
}
