import Testing

@testable import KeyboardLinkKeymap

/// Expected values are computed by hand from QMK's keycode ranges (keycodes 0.0.1: QK_MODS 0x0100,
/// QK_MOD_TAP 0x2000, QK_LAYER_TAP 0x4000, QK_TO 0x5200, QK_MOMENTARY 0x5220, QK_TOGGLE_LAYER 0x5260,
/// QK_MACRO 0x7700; modifier bits 0x01 Ctrl, 0x02 Shift, 0x04 Alt, 0x08 GUI, 0x10 right hand).
@Suite("QMK 16-bit keycodes")
struct QMKKeycodeTests {
    static let cases: [(String, UInt16)] = [
        ("KC_NO", 0x0000),
        ("KC_TRNS", 0x0001),
        ("KC_A", 0x0004),
        ("KC_ENTER", 0x0028),
        ("KC_P1", 0x0059),
        ("KC_LGUI", 0x00E3),
        ("KC_VOLU", 0x00A9),  // consumer volume up: QMK basic code 0xA9, not the usage 0xE9
        ("KC_MPLY", 0x00AE),
        ("LSFT(KC_1)", 0x021E),  // Shift 0x02 << 8 | KC_1 0x1E
        ("LCTL(KC_C)", 0x0106),  // Ctrl 0x01 << 8 | KC_C 0x06
        ("LCTL(LSFT(KC_A))", 0x0304),  // (0x01 | 0x02) << 8 | 0x04
        ("RALT(KC_Q)", 0x1414),  // (right 0x10 | Alt 0x04) << 8 | KC_Q 0x14
        ("RSFT(KC_ENT)", 0x1228),  // (0x10 | 0x02) << 8 | 0x28
        ("MO(1)", 0x5221),
        ("MO(31)", 0x523F),
        ("TG(2)", 0x5262),
        ("TO(3)", 0x5203),
        ("LT(1, KC_SPC)", 0x412C),  // 0x4000 | 1 << 8 | KC_SPC 0x2C
        ("LT(15, KC_A)", 0x4F04),
        ("LCTL_T(KC_A)", 0x2104),  // 0x2000 | Ctrl 0x01 << 8 | 0x04
        ("MT(MOD_LCTL | MOD_LSFT, KC_ESC)", 0x2329),  // 0x2000 | 0x03 << 8 | KC_ESC 0x29
        ("RSFT_T(KC_ENT)", 0x3228),  // 0x2000 | 0x12 << 8 | 0x28
        ("QMK(0x7C00)", 0x7C00),
    ]

    @Test("actions encode to the keycodes VIA transfers, and decode back", arguments: cases)
    func encodeDecode(text: String, code: UInt16) throws {
        let action = try KeyAction(parsing: text)
        #expect(try action.qmkKeycode() == code)
        #expect(KeyAction(qmkKeycode: code) == action)
    }

    @Test("macros use their slot in the list of macro names")
    func macroSlots() throws {
        let names = [try MacroName("first"), try MacroName("second"), try MacroName("third")]
        let action = KeyAction.macro(names[2])
        #expect(try action.qmkKeycode(macroNames: names) == 0x7702)
        #expect(KeyAction(qmkKeycode: 0x7702, macroNames: names) == action)
        #expect(KeyAction(qmkKeycode: 0x7705, macroNames: names) == .qmkKeycode(0x7705))
        #expect(throws: KeymapError.self) { try action.qmkKeycode(macroNames: []) }
    }

    @Test("unknown keycodes are kept verbatim", arguments: [UInt16(0x7C00), 0x7800, 0x00CD, 0x5240, 0x8000, 0xFFFF])
    func keptVerbatim(code: UInt16) throws {
        let action = KeyAction(qmkKeycode: code)
        #expect(action == .qmkKeycode(code))
        #expect(try action.qmkKeycode() == code)
    }

    @Test("every 16-bit value decodes without crashing and re-encodes to itself when it decodes to a known form")
    func exhaustive() throws {
        for value in 0...Int(UInt16.max) {
            let code = UInt16(value)
            let action = KeyAction(qmkKeycode: code)
            if let encoded = try? action.qmkKeycode() {
                // Different QMK spellings of one action (left Ctrl+Shift written as 0x03 or 0x13 with no right
                // bits) collapse, so compare by decoding again.
                #expect(KeyAction(qmkKeycode: encoded) == action, "0x\(String(code, radix: 16))")
            }
        }
    }

    @Test(
        "what QMK cannot say is refused with a reason",
        arguments: [
            KeyAction.key(KeyPress(.keyboard(0x04), modifiers: [.leftControl, .rightShift])),
            .momentaryLayer(32),
            .layerTap(layer: 16, tap: KeyPress(.keyboard(0x04))),
            .layerTap(layer: 1, tap: KeyPress(.keyboard(0x04), modifiers: .leftShift)),
            .modTap(modifiers: [], tap: KeyPress(.keyboard(0x04))),
            .key(.consumer(0x123)),
        ])
    func notEncodable(action: KeyAction) {
        #expect {
            try action.qmkKeycode()
        } throws: { error in
            guard case .notEncodable = error as? KeymapError else { return false }
            return true
        }
    }
}
