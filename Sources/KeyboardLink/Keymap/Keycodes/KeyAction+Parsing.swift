extension KeyAction {
    /// Reads an action written in any spelling people know.
    ///
    /// Accepted, case-insensitively for key names:
    /// - QMK: `KC_A`, `KC_ENT`/`KC_ENTER`, `KC_P1`, `KC_EXLM`, `LSFT(KC_1)`, `LCTL(LSFT(KC_A))`, `HYPR(KC_A)`,
    ///   `MO(1)`, `TG(2)`, `TO(0)`, `LT(1, KC_SPC)`, `LCTL_T(KC_A)`, `MT(MOD_LCTL | MOD_LSFT, KC_A)`,
    ///   `KC_TRNS`/`_______`, `KC_NO`/`XXXXXXX`, `QK_MACRO_3`;
    /// - ZMK: `A`, `N1`, `KP_N1`, `LS(N1)`, `LC(C)`, `&kp A`, `&kp LS(N1)`, `&mo 1`, `&tog 1`, `&to 1`, `&lt 1 SPACE`,
    ///   `&mt LCTRL A`, `&trans`, `&none`, `&my_macro` (a macro behaviour);
    /// - evdev: `KEY_A`, `KEY_KP1`, `KEY_LEFTSHIFT`;
    /// - kblink's own: `MACRO(name)` (case-sensitive name), `HID(0x0C, 0xE9)` for any usage, `QMK(0x7C00)` for any
    ///   16-bit QMK keycode.
    /// - Throws: `KeymapError.unknownKeycode` with the nearest known name, or `.malformedAction`.
    package init(parsing text: String) throws(KeymapError) {
        var parser = KeyActionParser(text)
        self = try parser.parse()
    }
}
