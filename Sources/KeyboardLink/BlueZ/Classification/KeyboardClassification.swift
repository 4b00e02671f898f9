/// The classifier's answer: whether a Bluetooth device counts as a keyboard, and why.
package struct KeyboardClassification: Hashable, Sendable, CustomStringConvertible {
    /// The kind of device the hints add up to.
    package enum Verdict: String, Hashable, Sendable, CaseIterable {
        /// A keyboard hint and no pointer hint.
        case keyboard
        /// A keyboard hint and a pointer hint (a keyboard with a touchpad or trackpoint; Class minor 0xC0).
        case keyboardWithPointer = "keyboard+pointer"
        /// Only generic input hints (HID or HOGP service, generic HID appearance, uncategorized peripheral)
        /// and nothing that says it is something else: counted as a keyboard.
        case inputDevice = "input device"
        /// No keyboard hint, and a hint that it is something else (a mouse, a gamepad, a phone, a headset...).
        case otherDevice = "other device"
        /// No hint at all.
        case unknown
    }

    /// The verdict.
    package let verdict: Verdict
    /// Every hint found, in the order Class, Appearance, Icon, UUIDs.
    package let hints: [ClassificationHint]

    /// Creates a classification.
    package init(verdict: Verdict, hints: [ClassificationHint]) {
        self.verdict = verdict
        self.hints = hints
    }

    /// Whether the device counts as a keyboard (`keyboard`, `keyboard+pointer` or `input device`).
    package var isKeyboard: Bool {
        switch verdict {
        case .keyboard, .keyboardWithPointer, .inputDevice: true
        case .otherDevice, .unknown: false
        }
    }

    /// One line for logs and `kblink info`: the verdict and the hints that decided it, e.g.
    /// `keyboard (Class 0x002540: peripheral, keyboard bit; UUID 0x1124: HID)`.
    package var reason: String {
        let deciding: [ClassificationHint]
        switch verdict {
        case .keyboard, .keyboardWithPointer:
            deciding = hints.filter { $0.meaning == .keyboard || $0.meaning == .pointer }
        case .inputDevice:
            deciding = hints.filter { $0.meaning == .input }
        case .otherDevice:
            deciding = hints.filter { $0.meaning == .pointer || $0.meaning == .otherDevice }
        case .unknown:
            return "unknown (no Class, Appearance, Icon or HID service UUID)"
        }
        let evidence = deciding.map(\.description).joined(separator: "; ")
        switch verdict {
        case .inputDevice:
            return "input device, counted as a keyboard (\(evidence); nothing says it is a mouse or gamepad)"
        case .otherDevice:
            return "not a keyboard (\(evidence))"
        default:
            return "\(verdict.rawValue) (\(evidence))"
        }
    }

    package var description: String { reason }
}
