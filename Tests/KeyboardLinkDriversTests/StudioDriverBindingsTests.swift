import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkDrivers

/// The translation between actions and ZMK Studio bindings through behaviours found by display name.
@Suite("ZMK Studio bindings by behaviour name")
struct StudioDriverBindingsTests {
    /// Ids chosen apart from list positions, as firmware builds assign them.
    static let table = StudioDriverBindings(behaviors: [
        StudioBehaviorDetails(id: 40, displayName: "Key Press"),
        StudioBehaviorDetails(id: 7, displayName: "Momentary Layer"),
        StudioBehaviorDetails(id: 3, displayName: "Transparent"),
        StudioBehaviorDetails(id: 9, displayName: "None"),
        StudioBehaviorDetails(id: 22, displayName: "Layer-Tap"),
        StudioBehaviorDetails(id: 51, displayName: "copy_paste"),
    ])

    @Test(
        "actions encode to the behaviour's id and ZMK parameters",
        arguments: [
            // &kp A: keyboard page 0x07, usage 0x04.
            ("KC_A", StudioBehaviorBinding(behaviorID: 40, param1: 0x0007_0004)),
            // &kp LS(N1): left shift (0x02) in the top byte.
            ("LSFT(KC_1)", StudioBehaviorBinding(behaviorID: 40, param1: 0x0207_001E)),
            // Consumer page 0x0C, volume up 0xE9.
            ("KC_VOLU", StudioBehaviorBinding(behaviorID: 40, param1: 0x000C_00E9)),
            ("MO(2)", StudioBehaviorBinding(behaviorID: 7, param1: 2)),
            ("KC_TRNS", StudioBehaviorBinding(behaviorID: 3)),
            ("KC_NO", StudioBehaviorBinding(behaviorID: 9)),
            ("LT(1, KC_SPC)", StudioBehaviorBinding(behaviorID: 22, param1: 1, param2: 0x0007_002C)),
            ("MACRO(copy_paste)", StudioBehaviorBinding(behaviorID: 51)),
        ])
    func encodes(text: String, binding: StudioBehaviorBinding) throws {
        let action = try KeyAction(parsing: text)
        #expect(try Self.table.encode(action) == binding)
        #expect(Self.table.decode(binding) == .action(action))
    }

    @Test("a macro the firmware lacks is NotSupported and named")
    func missingMacro() throws {
        let action = KeyAction.macro(try MacroName("hello"))
        #expect(throws: DriverError.self) { try Self.table.encode(action) }
        do {
            _ = try Self.table.encode(action)
        } catch {
            guard case .notSupported(let message) = error else {
                Issue.record("expected notSupported, got \(error)")
                return
            }
            #expect(message.contains("hello"))
            #expect(message.contains("no runtime macros"))
        }
    }

    @Test("a behaviour the firmware lacks is NotSupported; an unknown binding reads as other")
    func missingBehaviour() throws {
        #expect(throws: DriverError.self) { try Self.table.encode(.toggleLayer(1)) }
        #expect(Self.table.decode(StudioBehaviorBinding(behaviorID: 99)) == .other("unknown behaviour 99"))
    }
}
