import Testing

@testable import KeyboardLinkKeymap

@Suite("Keycode table")
struct KeycodeTableTests {
    let table = KeycodeTable.shared

    @Test("no name belongs to two keys")
    func noConflicts() {
        #expect(table.conflictingNames.isEmpty)
    }

    @Test("the whole keyboard page a full-size keyboard uses is named")
    func keyboardPageCovered() {
        let ids = Array(UInt16(0x04)...0xA4) + Array(UInt16(0xE0)...0xE7)
        let missing = ids.filter { table.entry(for: .keyboard($0)) == nil }
        #expect(missing.isEmpty, "unnamed keyboard usages: \(missing)")
    }

    @Test("every QMK, ZMK, evdev and plain name of an entry reads back to that entry")
    func namesResolve() throws {
        for entry in table.entries {
            let names = entry.qmkNames + entry.zmkNames + entry.plainNames + (entry.evdev.map { [$0.name] } ?? [])
            for name in names {
                let action = try KeyAction(parsing: name)
                #expect(action == .key(entry.usage), "\(name)")
            }
        }
    }

    @Test(
        "evdev codes map to the usages Linux reports",
        arguments: [
            (UInt16(30), HIDUsage.keyboard(0x04)),  // KEY_A
            (UInt16(2), .keyboard(0x1E)),  // KEY_1
            (UInt16(28), .keyboard(0x28)),  // KEY_ENTER
            (UInt16(42), .keyboard(0xE1)),  // KEY_LEFTSHIFT
            (UInt16(79), .keyboard(0x59)),  // KEY_KP1
            (UInt16(88), .keyboard(0x45)),  // KEY_F12
            (UInt16(183), .keyboard(0x68)),  // KEY_F13
            (UInt16(115), .consumer(0xE9)),  // KEY_VOLUMEUP
            (UInt16(125), .keyboard(0xE3)),  // KEY_LEFTMETA
        ])
    func evdevCodes(code: UInt16, usage: HIDUsage) {
        #expect(table.usage(forEvdevCode: code) == usage)
    }

    @Test("every evdev code in the table names its own entry")
    func evdevRoundTrip() {
        for entry in table.entries {
            guard let evdev = entry.evdev else { continue }
            #expect(table.usage(forEvdevCode: evdev.code) == entry.usage, "\(evdev.name)")
        }
    }

    @Test("QMK basic codes of consumer keys follow QMK's table")
    func consumerBasicCodes() {
        #expect(table.qmkBasicCode(for: .consumer(0xE2)) == 0xA8)  // KC_MUTE
        #expect(table.qmkBasicCode(for: .consumer(0xE9)) == 0xA9)  // KC_VOLU
        #expect(table.qmkBasicCode(for: .consumer(0xEA)) == 0xAA)  // KC_VOLD
        #expect(table.qmkBasicCode(for: .consumer(0xCD)) == 0xAE)  // KC_MPLY
        #expect(table.qmkBasicCode(for: .consumer(0x70)) == 0xBE)  // KC_BRID
        #expect(table.usage(forQMKBasicCode: 0xAB) == .consumer(0xB5))  // KC_MNXT
    }

    @Test("macro names are the long QMK names without KC_")
    func macroNames() {
        #expect(table.entry(for: .keyboard(0x28))?.macroName == "enter")
        #expect(table.entry(for: .keyboard(0xE0))?.macroName == "left_ctrl")
        #expect(table.entry(for: .keyboard(0x59))?.macroName == "kp_1")
        #expect(table.entry(for: .keyboard(0x04))?.macroName == "a")
    }
}
