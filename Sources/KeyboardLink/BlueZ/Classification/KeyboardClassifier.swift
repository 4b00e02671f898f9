/// Decides whether a Bluetooth device is a keyboard from its `Class`, `Appearance`, `Icon` and `UUIDs`.
///
/// Each property gives at most a few hints (see ``ClassificationHint``):
/// - Class of Device, when not 0: a peripheral (`(cod >> 8) & 0x1F == 0x05`) gives *keyboard* for bit 0x40 and
///   *pointer* for bit 0x80 (0xC0 is a keyboard+pointer combo); a peripheral with neither bit gives *other device*
///   when its subtype (bits 2-5: joystick, gamepad, remote, tablet...) is set, else *input*. Major classes
///   miscellaneous (0x00) and uncategorized (0x1F) say nothing; every other major class (computer, phone,
///   audio/video, imaging, wearable...) gives *other device*.
/// - Appearance, when not 0: 0x03C1 gives *keyboard*, 0x03C0 (generic HID) *input*, 0x03C2 (mouse) and 0x03C9
///   (touchpad) *pointer*, every other HID subcategory (joystick, gamepad, tablet, card reader, pen, barcode
///   scanner, presentation remote) and every other category (phone, watch, audio...) *other device*.
/// - Icon: `input-keyboard` gives *keyboard*, `input-mouse` *pointer*, any other non-empty icon *other device*.
/// - UUIDs: HID (0x1124) and HID over GATT (0x1812) give *input*. They alone do not say "keyboard": mice and
///   gamepads use them too.
///
/// The verdict, in order: any *keyboard* hint makes a keyboard (a combo when a *pointer* hint is also present);
/// else any *pointer* or *other device* hint makes it not a keyboard; else any *input* hint makes it an input
/// device that counts as a keyboard (a keyboard that announces nothing more than HID is common; a mouse or gamepad
/// nearly always also announces its class or appearance); else it is unknown and does not count.
package enum KeyboardClassifier {
    /// Classifies one device.
    package static func classify(_ traits: DeviceTraits) -> KeyboardClassification {
        var hints: [ClassificationHint] = []
        if let cod = traits.classOfDevice { hints += classOfDeviceHints(cod) }
        if let appearance = traits.appearance { hints += appearanceHints(appearance) }
        if let icon = traits.icon { hints += iconHints(icon) }
        hints += uuidHints(traits.uuids)

        let meanings = Set(hints.map(\.meaning))
        let verdict: KeyboardClassification.Verdict
        if meanings.contains(.keyboard) {
            verdict = meanings.contains(.pointer) ? .keyboardWithPointer : .keyboard
        } else if meanings.contains(.pointer) || meanings.contains(.otherDevice) {
            verdict = .otherDevice
        } else if meanings.contains(.input) {
            verdict = .inputDevice
        } else {
            verdict = .unknown
        }
        return KeyboardClassification(verdict: verdict, hints: hints)
    }

    static func classOfDeviceHints(_ cod: ClassOfDevice) -> [ClassificationHint] {
        guard cod.rawValue != 0 else { return [] }
        let major = cod.majorClass
        func hint(_ meaning: ClassificationHint.Meaning, _ what: String) -> ClassificationHint {
            ClassificationHint(source: .classOfDevice, meaning: meaning, detail: "\(cod): \(what)")
        }
        switch major {
        case .miscellaneous, .uncategorized:
            return []
        case .peripheral:
            var hints: [ClassificationHint] = []
            if cod.hasKeyboardBit { hints.append(hint(.keyboard, "peripheral, keyboard bit")) }
            if cod.hasPointingBit { hints.append(hint(.pointer, "peripheral, pointing-device bit")) }
            if hints.isEmpty {
                let subtype = cod.peripheralSubtype
                if subtype == 0 {
                    hints.append(hint(.input, "uncategorized peripheral"))
                } else {
                    hints.append(hint(.otherDevice, "peripheral, \(peripheralSubtypeName(subtype))"))
                }
            }
            return hints
        default:
            return [hint(.otherDevice, major.description)]
        }
    }

    static func peripheralSubtypeName(_ subtype: UInt8) -> String {
        switch subtype {
        case 1: "joystick"
        case 2: "gamepad"
        case 3: "remote control"
        case 4: "sensing device"
        case 5: "digitizer tablet"
        case 6: "card reader"
        case 7: "digital pen"
        case 8: "handheld scanner"
        case 9: "handheld gestural input device"
        default: "subtype \(subtype)"
        }
    }

    static func appearanceHints(_ appearance: DeviceAppearance) -> [ClassificationHint] {
        guard appearance != .unknown else { return [] }
        let meaning: ClassificationHint.Meaning
        if appearance.category == DeviceAppearance.hidCategory {
            switch appearance.subcategory {
            case 0x01: meaning = .keyboard
            case 0x00: meaning = .input
            case 0x02, 0x09: meaning = .pointer
            default: meaning = .otherDevice
            }
        } else {
            meaning = .otherDevice
        }
        return [ClassificationHint(source: .appearance, meaning: meaning, detail: appearance.description)]
    }

    static func iconHints(_ icon: String) -> [ClassificationHint] {
        let meaning: ClassificationHint.Meaning
        switch icon {
        case "": return []
        case "input-keyboard": meaning = .keyboard
        case "input-mouse": meaning = .pointer
        default: meaning = .otherDevice
        }
        return [ClassificationHint(source: .icon, meaning: meaning, detail: icon)]
    }

    static func uuidHints(_ uuids: [BluetoothUUID]) -> [ClassificationHint] {
        var hints: [ClassificationHint] = []
        if uuids.contains(.humanInterfaceDevice) {
            hints.append(ClassificationHint(source: .serviceUUID, meaning: .input, detail: "0x1124: HID"))
        }
        if uuids.contains(.hidOverGATT) {
            hints.append(ClassificationHint(source: .serviceUUID, meaning: .input, detail: "0x1812: HID over GATT"))
        }
        return hints
    }
}
