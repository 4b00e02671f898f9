import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 7's acceptance: switching zones back and forth between edits keeps all of them.
@Suite("Zone switching over D-Bus keeps every edit")
struct KeymapZoneSwitchingTests {
    static let actions = [
        "KC_A", "KC_Q", "KC_ESC", "KC_TRNS", "KC_NO", "MO(1)", "TG(2)", "LSFT(KC_1)", "LT(3, KC_SPC)", "KC_MUTE",
        "LCTL_T(KC_ESC)", "KC_P5", "KC_F13", "KC_VOLU", "KC_HOME",
    ]

    @Test("1,000 zone switches between random edits: the draft equals the edits applied in order")
    func thousandSwitches() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { keymap in
                let layout = try PhysicalLayout.builtIn("vgn-98pro")
                var model = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
                let keysByZone = Dictionary(grouping: try await keymap.keys(), by: \.zone).mapValues { $0.map(\.key) }
                let zones = try await keymap.state().zones
                #expect(zones.count == 4)
                var random = SeededRandom(seed: 0x7A0E_5111)
                var current = "standard"
                var edits = 0
                for switchNumber in 0..<1_000 {
                    // One or two edits, sometimes in another zone than the one on show, sometimes an undo.
                    for _ in 0...Int.random(in: 0...1, using: &random) {
                        if Int.random(in: 0..<10, using: &random) == 0 && model.canUndo {
                            try await keymap.undo()
                            try model.undo()
                            continue
                        }
                        let zone =
                            Bool.random(using: &random) ? current : zones.randomElement(using: &random) ?? current
                        let key = keysByZone[zone]?.randomElement(using: &random) ?? "A"
                        let layer = Int.random(in: 0..<4, using: &random)
                        let action = Self.actions.randomElement(using: &random) ?? "KC_A"
                        try await keymap.setBinding(zone: zone, layer: layer, key: key, action: action)
                        try model.setBinding(zone: zone, layer: layer, key: key, action: action)
                        edits += 1
                    }
                    var next = zones.randomElement(using: &random) ?? "standard"
                    if next == current { next = zones[(zones.firstIndex(of: current) ?? 0 + 1) % zones.count] }
                    try await keymap.selectZone(next)
                    try model.selectZone(named: next)
                    current = next
                    if switchNumber % 250 == 249 {
                        #expect(try await keymap.currentZone() == current)
                        #expect(try await keymap.diff() == Self.rows(model.diffTexts()))
                    }
                }
                #expect(edits > 1_200)
                #expect(try await keymap.currentZone() == current)
                #expect(try await keymap.diff() == Self.rows(model.diffTexts()))
                #expect(try await keymap.exportProfile() == model.exportProfileJSON())
                for zone in zones {
                    for layer in 0..<4 {
                        let served = try await keymap.bindings(zone: zone, layer: layer)
                        let expected = try model.bindingTexts(zone: zone, layer: layer)
                        #expect(served.map(\.key) == expected.map(\.key))
                        #expect(served.map(\.action) == expected.map(\.action), "\(zone) layer \(layer)")
                    }
                }
                // The diff is not trivially empty: the random edits left changes in every zone.
                #expect(Set(try await keymap.diff().map(\.zone)) == Set(zones))
            }
        }
    }

    static func rows(
        _ texts: [(zone: String, layer: Int, key: String, old: String, new: String, origin: String)]
    ) -> [KeymapDiffRow] {
        texts.map {
            KeymapDiffRow(zone: $0.zone, layer: $0.layer, key: $0.key, old: $0.old, new: $0.new, origin: $0.origin)
        }
    }
}
