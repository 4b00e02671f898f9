import KeyboardLinkKeymap
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymapFiles

/// Keymaps and files the keymap-file tests share.
enum KeymapFileFixtures {
    /// A keymap with a binding of every kind kblink holds and macros of every step, on a built-in layout.
    static func richKeymap(_ layoutID: String) throws -> (PhysicalLayout, Keymap) {
        let layout = try PhysicalLayout.builtIn(layoutID)
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        try session.setMacro(name: "sig", definition: "text 'Best regards', enter, delay 50, ctrl+c")
        try session.setMacro(name: "copy", definition: "ctrl+c")
        try session.setMacro(name: "shifty", definition: "press shift, a, release shift, tap b")
        try session.setBinding(zone: "", layer: 0, key: "CAPS", action: "LCTL_T(KC_ESC)")
        try session.setBinding(zone: "", layer: 0, key: "A", action: "MT(MOD_LCTL | MOD_LSFT, KC_A)")
        try session.setBinding(zone: "", layer: 0, key: "SPACE", action: "LT(2, KC_SPC)")
        try session.setBinding(zone: "", layer: 0, key: "Q", action: "LSFT(LALT(KC_TAB))")
        try session.setBinding(zone: "", layer: 0, key: "Z", action: "KC_NO")
        try session.setBinding(zone: "", layer: 1, key: "F1", action: "KC_MUTE")
        try session.setBinding(zone: "", layer: 1, key: "F2", action: "TG(3)")
        try session.setBinding(zone: "", layer: 1, key: "F3", action: "TO(0)")
        try session.setBinding(zone: "", layer: 1, key: "F4", action: "MACRO(sig)")
        try session.setBinding(zone: "", layer: 1, key: "F5", action: "MACRO(copy)")
        try session.setBinding(zone: "", layer: 2, key: "F6", action: "MACRO(shifty)")
        try session.setBinding(zone: "", layer: 3, key: "UP", action: "RCTL(KC_PGUP)")
        return (layout, session.draftKeymap)
    }

    static let handWrittenZMK = KeymapFixtureText.handWrittenZMK

    static func line(of marker: String, in text: String) -> Int { KeymapFixtureText.line(of: marker, in: text) }
}
