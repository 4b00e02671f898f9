import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 7's acceptance: undo and redo over a long random log return to every earlier state exactly.
@Suite("Undo and redo over D-Bus walk the whole log")
struct KeymapUndoWalkTests {
    @Test("a random log of 150 edits: undo visits every earlier profile, redo every later one")
    func walk() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                let keys = try await keymap.keys().map(\.key)
                var random = SeededRandom(seed: 42)
                var snapshots = [try await keymap.exportProfile()]
                var macroNames: [String] = []
                while snapshots.count <= 150 {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0:
                        let name = "m\(snapshots.count)"
                        try await keymap.setMacro(name: name, definition: "text '\(name)', delay 20, ctrl+s")
                        macroNames.append(name)
                    case 1 where !macroNames.isEmpty:
                        let name = macroNames.randomElement(using: &random) ?? ""
                        try await keymap.setBinding(
                            layer: 1, key: keys.randomElement(using: &random) ?? "A", action: "MACRO(\(name))")
                    default:
                        let action =
                            ["KC_B", "KC_TRNS", "MO(2)", "RALT(KC_E)", "KC_NO"].randomElement(using: &random) ?? "KC_B"
                        try await keymap.setBinding(
                            layer: Int.random(in: 0..<4, using: &random),
                            key: keys.randomElement(using: &random) ?? "A",
                            action: action)
                    }
                    let profile = try await keymap.exportProfile()
                    // An edit that changes nothing is not logged; keep only real steps.
                    if profile != snapshots.last { snapshots.append(profile) }
                }
                #expect(Set(snapshots).count == snapshots.count, "every step changed the profile")
                for expected in snapshots.dropLast().reversed() {
                    try await keymap.undo()
                    #expect(try await keymap.exportProfile() == expected)
                }
                #expect(try await keymap.state().canUndo == false)
                for expected in snapshots.dropFirst() {
                    try await keymap.redo()
                    #expect(try await keymap.exportProfile() == expected)
                }
                #expect(try await keymap.state().canRedo == false)
            }
        }
    }
}
