import Testing

@testable import KeyboardLinkKeymap

@Suite("Edit session through text")
struct KeymapEditSessionTextTests {
    @Test("the D-Bus shaped methods read, edit and report in text")
    func textMethods() throws {
        var session = try KeymapEditSessionTests.session("aula-f87")
        try session.selectZone(named: "function")
        #expect(session.currentZone == .function)
        try session.setMacro(name: "copy", definition: "ctrl+c")
        try session.setBinding(zone: "function", layer: 1, key: "f1", action: "MACRO(copy)")
        try session.setBinding(zone: "", layer: 0, key: "CAPS", action: "&kp LCTRL")
        let bindings = try session.bindingTexts(zone: "function", layer: 1)
        #expect(bindings.first { $0.key == "F1" }?.action == "MACRO(copy)")
        #expect(bindings.count == 16)
        #expect(session.macroTexts == ["copy": "ctrl+c"])
        let diff = session.diffTexts()
        // The bindings, then the macro the draft adds (zone "macro").
        #expect(diff.map(\.key) == ["CAPS", "F1", "copy"])
        #expect(diff[2].zone == "macro" && diff[2].old == "" && diff[2].new == "ctrl+c")
        #expect(diff[0].old == "KC_CAPS" && diff[0].new == "KC_LCTL" && diff[0].origin == "draft")
        #expect(diff[1].zone == "function" && diff[1].layer == 1)
    }

    @Test(
        "bad text gives errors that name the problem",
        arguments: [
            ("numbers", 0, "A", "KC_A", "unknown zone 'numbers'; zones are standard, number, function and navigation"),
            ("standard", 0, "ESCC", "KC_A", "layout aula-f87 has no key named 'ESCC'; did you mean 'ESC'?"),
            ("standard", 0, "A!", "KC_A", "layout aula-f87 has no key named 'A!'; did you mean 'A'?"),
            ("standard", 9, "A", "KC_A", "layer 9 does not exist: this keymap has layers 0 to 3"),
            ("standard", 0, "A", "KC_ENTRE", "unknown key code 'KC_ENTRE'; did you mean 'KC_ENTER'?"),
            ("function", 0, "A", "KC_B", "key A is in the standard zone, not in the function zone"),
            ("standard", -1, "A", "KC_B", "layer -1 does not exist: this keymap has layers 0 to 3"),
        ])
    func errors(zone: String, layer: Int, key: String, action: String, message: String) throws {
        var session = try KeymapEditSessionTests.session("aula-f87")
        do {
            try session.setBinding(zone: zone, layer: layer, key: key, action: action)
            Issue.record("should fail")
        } catch {
            #expect(error.description == message)
        }
    }
}
