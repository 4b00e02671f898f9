import Testing

@testable import KeyboardLinkKeymap

@Suite("Key action names")
struct KeyActionParsingTests {
    static let a = KeyAction.key(.keyboard(0x04))
    static let enter = KeyAction.key(.keyboard(0x28))
    static let keypad1 = KeyAction.key(.keyboard(0x59))
    static let shift1 = KeyAction.key(KeyPress(.keyboard(0x1E), modifiers: .leftShift))
    static let controlC = KeyAction.key(KeyPress(.keyboard(0x06), modifiers: .leftControl))

    @Test(
        "every spelling of a key reads to one action",
        arguments: [
            ("KC_A", a), ("kc_a", a), ("A", a), ("a", a), ("KEY_A", a), ("&kp A", a), ("  KC_A  ", a),
            ("KC_ENT", enter), ("KC_ENTER", enter), ("ENTER", enter), ("RET", enter), ("KEY_ENTER", enter),
            ("&kp RETURN", enter),
            ("KC_P1", keypad1), ("KC_KP_1", keypad1), ("KP_N1", keypad1), ("KP_NUMBER_1", keypad1),
            ("KEY_KP1", keypad1),
            ("LSFT(KC_1)", shift1), ("LS(N1)", shift1), ("&kp LS(N1)", shift1), ("KC_EXLM", shift1), ("EXCL", shift1),
            ("S(KC_1)", shift1), ("lsft( kc_1 )", shift1),
            ("LCTL(KC_C)", controlC), ("LC(C)", controlC), ("C(KC_C)", controlC), ("&kp LC(C)", controlC),
            ("MO(1)", KeyAction.momentaryLayer(1)), ("&mo 1", .momentaryLayer(1)),
            ("TG(2)", .toggleLayer(2)), ("&tog 2", .toggleLayer(2)), ("TO(3)", .toLayer(3)), ("&to 3", .toLayer(3)),
            ("KC_TRNS", .transparent), ("_______", .transparent), ("KC_TRANSPARENT", .transparent),
            ("&trans", .transparent),
            ("KC_NO", KeyAction.none), ("XXXXXXX", .none), ("&none", .none),
            ("LT(1, KC_SPC)", .layerTap(layer: 1, tap: KeyPress(.keyboard(0x2C)))),
            ("&lt 1 SPACE", .layerTap(layer: 1, tap: KeyPress(.keyboard(0x2C)))),
            ("LCTL_T(KC_A)", .modTap(modifiers: .leftControl, tap: KeyPress(.keyboard(0x04)))),
            ("MT(MOD_LCTL, KC_A)", .modTap(modifiers: .leftControl, tap: KeyPress(.keyboard(0x04)))),
            ("&mt LCTRL A", .modTap(modifiers: .leftControl, tap: KeyPress(.keyboard(0x04)))),
            (
                "MT(MOD_LCTL | MOD_LSFT, KC_A)",
                .modTap(modifiers: [.leftControl, .leftShift], tap: KeyPress(.keyboard(0x04)))
            ),
            ("KC_VOLU", .key(.consumer(0xE9))), ("C_VOL_UP", .key(.consumer(0xE9))),
            ("KEY_VOLUMEUP", .key(.consumer(0xE9))),
            ("KC_MUTE", .key(.consumer(0xE2))), ("KC_MPLY", .key(.consumer(0xCD))),
            ("HID(0x0C, 0x123)", .key(.consumer(0x123))),
            ("QMK(0x7C00)", .qmkKeycode(0x7C00)), ("QMK(0x0004)", a),
            ("QK_MACRO_3", .qmkKeycode(0x7703)),
        ])
    func spellings(text: String, expected: KeyAction) throws {
        #expect(try KeyAction(parsing: text) == expected)
    }

    @Test("macro references keep the name's case")
    func macroReference() throws {
        let name = try MacroName("Copy-Line_2")
        #expect(try KeyAction(parsing: "MACRO(Copy-Line_2)") == .macro(name))
        #expect(try KeyAction(parsing: "&Copy-Line_2") == .macro(name))
    }

    static let roundTripActions: [KeyAction] = [
        a, enter, keypad1, shift1, controlC, .none, .transparent, .momentaryLayer(0), .momentaryLayer(31),
        .toggleLayer(4), .toLayer(2), .layerTap(layer: 3, tap: KeyPress(.keyboard(0x2A))),
        .layerTap(layer: 1, tap: KeyPress(.keyboard(0x04), modifiers: .leftShift)),
        .modTap(modifiers: .rightShift, tap: KeyPress(.keyboard(0x28))),
        .modTap(modifiers: [.leftControl, .leftAlt, .leftGUI], tap: KeyPress(.keyboard(0x29))),
        .key(KeyPress(.keyboard(0x14), modifiers: [.leftControl, .rightShift])),
        .key(KeyPress(.keyboard(0xE1), modifiers: .leftControl)),
        .key(.consumer(0xE9)), .key(.consumer(0x123)), .key(HIDUsage(page: 0x01, id: 0x81)),
        .qmkKeycode(0x7C00), .qmkKeycode(0x7705),
    ]

    @Test("printing in QMK and ZMK spelling reads back to the same action", arguments: roundTripActions)
    func roundTrip(action: KeyAction) throws {
        #expect(try KeyAction(parsing: action.description) == action)
        #expect(try KeyAction(parsing: action.formatted(.zmk)) == action)
    }

    @Test("every named key round-trips through both spellings, with and without modifiers")
    func tableRoundTrip() throws {
        for entry in KeycodeTable.shared.entries {
            for modifiers in [ModifierSet(), .leftShift, [.rightAlt, .rightGUI]] {
                let action = KeyAction.key(KeyPress(entry.usage, modifiers: modifiers))
                #expect(try KeyAction(parsing: action.description) == action)
                #expect(try KeyAction(parsing: action.formatted(.zmk)) == action)
            }
        }
    }

    @Test(
        "QMK printing uses the short names people see in keymaps",
        arguments: [
            (a, "KC_A"), (enter, "KC_ENT"), (keypad1, "KC_P1"), (shift1, "LSFT(KC_1)"), (controlC, "LCTL(KC_C)"),
            (KeyAction.momentaryLayer(1), "MO(1)"), (.transparent, "KC_TRNS"), (.none, "KC_NO"),
            (.key(KeyPress(.keyboard(0x04), modifiers: [.leftControl, .leftShift])), "LCTL(LSFT(KC_A))"),
            (.modTap(modifiers: .leftControl, tap: KeyPress(.keyboard(0x04))), "LCTL_T(KC_A)"),
            (
                .modTap(modifiers: [.leftControl, .leftShift], tap: KeyPress(.keyboard(0x04))),
                "MT(MOD_LCTL | MOD_LSFT, KC_A)"
            ),
            (.layerTap(layer: 2, tap: KeyPress(.keyboard(0x2C))), "LT(2, KC_SPC)"),
            (.key(.consumer(0xE9)), "KC_VOLU"), (.qmkKeycode(0x7C00), "QMK(0x7C00)"),
        ])
    func qmkPrinting(action: KeyAction, text: String) {
        #expect(action.description == text)
    }

    @Test(
        "ZMK printing uses devicetree bindings",
        arguments: [
            (a, "&kp A"), (shift1, "&kp LS(N1)"), (keypad1, "&kp KP_N1"), (KeyAction.momentaryLayer(1), "&mo 1"),
            (.transparent, "&trans"), (.none, "&none"),
            (.layerTap(layer: 1, tap: KeyPress(.keyboard(0x2C))), "&lt 1 SPACE"),
            (.modTap(modifiers: .leftControl, tap: KeyPress(.keyboard(0x04))), "&mt LCTRL A"),
            (.key(.consumer(0xE9)), "&kp C_VOL_UP"),
        ])
    func zmkPrinting(action: KeyAction, text: String) {
        #expect(action.formatted(.zmk) == text)
    }

    @Test(
        "unknown names suggest the nearest known name",
        arguments: [
            ("KC_ESCAP", "KC_ESCAP", "KC_ESCAPE"), ("KC_SPACEE", "KC_SPACEE", "KC_SPACE"),
            ("KEY_LEFTSHFT", "KEY_LEFTSHFT", "KEY_LEFTSHIFT"), ("kc_pgupp", "kc_pgupp", "KC_PGUP"),
            ("LSTF(KC_A)", "LSTF(...)", "LSFT(...)"), ("LSHIFTT", "LSHIFTT", "LSHIFT"),
        ])
    func suggestions(text: String, reported: String, suggestion: String) {
        #expect(throws: KeymapError.unknownKeycode(reported, suggestion: suggestion)) {
            try KeyAction(parsing: text)
        }
    }

    @Test("names far from every known name get no suggestion")
    func noSuggestion() {
        #expect(throws: KeymapError.unknownKeycode("QWERTYUIOPZZ", suggestion: nil)) {
            try KeyAction(parsing: "QWERTYUIOPZZ")
        }
    }

    @Test(
        "malformed actions are refused with a reason",
        arguments: [
            "", "   ", "MO(32)", "MO(-1)", "MO(x)", "LT(1, MO(2))", "LSFT(KC_1", "KC_A KC_B", "MACRO(bad name!)",
            "&kp", "&bt BT_CLR", "LT(16)", "MT(MOD_XYZ, KC_A)", "KC_A)", "1", "LSFT()", "&mt A B", "HID(0x1FFFF, 1)",
            String(repeating: "LSFT(", count: 20) + "KC_A" + String(repeating: ")", count: 20),
            String(repeating: "A", count: 300), "KC_A\u{0}", "ÄÖÜ",
        ])
    func malformed(text: String) {
        #expect(throws: KeymapError.self) { try KeyAction(parsing: text) }
    }

    @Test("error messages name the problem")
    func messages() {
        do {
            _ = try KeyAction(parsing: "KC_ESCAP")
            Issue.record("parsing should fail")
        } catch {
            #expect(error.description == "unknown key code 'KC_ESCAP'; did you mean 'KC_ESCAPE'?")
            #expect(error.category == .invalidArgs)
        }
    }
}
