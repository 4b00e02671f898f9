import Foundation
import KeyboardLink
import Testing

/// Issue 7's acceptance: bad input everywhere gives clear errors naming the problem, and none crashes the daemon
/// or changes the draft.
@Suite("Hostile input to org.kblink1.Keymap")
struct KeymapHostileInputTests {
    /// Longer than any name or text the API takes, and within the 64 KiB kblinkd reads of a call.
    static let big = String(repeating: "A", count: 40_000)
    /// Longer than kblinkd reads of any call but ImportProfile.
    static let huge = String(repeating: "A", count: 1 << 20)

    @Test("unknown keys, keys of another zone, bad layers, bad actions and bad macros give InvalidArgs")
    func badArguments() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap async throws in
                let invalid = KBlinkError.Code.invalidArgs
                await KeymapFixture.expectError(invalid, containing: ["no key named 'CAPZ'", "did you mean 'CAPS'"]) {
                    try await keymap.setBinding(layer: 0, key: "CAPZ", action: "KC_A")
                }
                await KeymapFixture.expectError(invalid, containing: ["no key named 'KP_1'"]) {
                    try await keymap.setBinding(layer: 0, key: "KP_1", action: "KC_A")
                }
                await KeymapFixture.expectError(invalid, containing: ["no key named 'é'"]) {
                    try await keymap.setBinding(layer: 0, key: "é", action: "KC_A")
                }
                await KeymapFixture.expectError(
                    invalid, containing: ["CAPS is in the standard zone, not in the function"]
                ) {
                    try await keymap.setBinding(zone: "function", layer: 0, key: "CAPS", action: "KC_A")
                }
                await KeymapFixture.expectError(
                    invalid, containing: ["CAPS is in the standard zone, not in the number zone"]
                ) {
                    try await keymap.setBinding(zone: "number", layer: 0, key: "CAPS", action: "KC_A")
                }
                await KeymapFixture.expectError(invalid, containing: ["layer 4 does not exist", "layers 0 to 3"]) {
                    try await keymap.setBinding(layer: 4, key: "A", action: "KC_B")
                }
                await KeymapFixture.expectError(invalid, containing: ["layer 4294967295 does not exist"]) {
                    _ = try await keymap.bindings(zone: "standard", layer: Int(UInt32.max))
                }
                await KeymapFixture.expectError(invalid, containing: ["layer 7 does not exist"]) {
                    try await keymap.setBinding(layer: 0, key: "A", action: "MO(7)")
                }
                await KeymapFixture.expectError(invalid, containing: ["unknown key code 'KC_ENTR'", "did you mean"]) {
                    try await keymap.setBinding(layer: 0, key: "A", action: "KC_ENTR")
                }
                await KeymapFixture.expectError(invalid, containing: ["cannot read the action 'LSFT(KC_1'"]) {
                    try await keymap.setBinding(layer: 0, key: "A", action: "LSFT(KC_1")
                }
                await KeymapFixture.expectError(invalid, containing: ["unknown zone 'keys'"]) {
                    _ = try await keymap.bindings(zone: "keys", layer: 0)
                }
                for (definition, fragment) in [
                    ("ctrl+", "at character 6"), ("delay 99999", "delay"), ("text 'open", "text"),
                    ("text 'héllo'", "ASCII"), ("", "macro"), (",,,", "at character 1"),
                ] {
                    await KeymapFixture.expectError(invalid, containing: [fragment]) {
                        try await keymap.setMacro(name: "m", definition: definition)
                    }
                }
                await KeymapFixture.expectError(invalid, containing: ["not a valid macro name"]) {
                    try await keymap.setMacro(name: "no spaces", definition: "a")
                }
                #expect(try await keymap.diff().isEmpty)
                #expect(try await keymap.state().dirty == false)
            }
        }
    }

    @Test("long strings are refused at the edge with their length; calls over 64 KiB before anything is read")
    func hugeStrings() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap async throws in
                let limits = ErrorName.limitsExceeded
                await KeymapFixture.expectBusError(limits, containing: ["1048603 bytes", "at most 65536"]) {
                    try await keymap.setBinding(layer: 0, key: Self.huge, action: "KC_A")
                }
                await KeymapFixture.expectBusError(limits, containing: ["Set's arguments are", "at most 65536"]) {
                    try await keymap.selectZone(Self.huge)
                }
                await KeymapFixture.expectBusError(limits, containing: ["SetMacro's arguments are", "at most 65536"]) {
                    try await keymap.setMacro(name: "m", definition: Self.huge)
                }
                let invalid = KBlinkError.Code.invalidArgs
                await KeymapFixture.expectError(invalid, containing: ["key is 40000 bytes long", "at most 32"]) {
                    try await keymap.setBinding(layer: 0, key: Self.big, action: "KC_A")
                }
                await KeymapFixture.expectError(invalid, containing: ["action is 40000 bytes long"]) {
                    try await keymap.setBinding(layer: 0, key: "A", action: Self.big)
                }
                await KeymapFixture.expectError(invalid, containing: ["zone is 40000 bytes long"]) {
                    _ = try await keymap.bindings(zone: Self.big, layer: 0)
                }
                await KeymapFixture.expectError(invalid, containing: ["CurrentZone is 40000 bytes long"]) {
                    try await keymap.selectZone(Self.big)
                }
                await KeymapFixture.expectError(invalid, containing: ["macro definition is 40000 bytes long"]) {
                    try await keymap.setMacro(name: "m", definition: Self.big)
                }
                await KeymapFixture.expectError(invalid, containing: ["macro name is 40000 bytes long"]) {
                    try await keymap.removeMacro(name: Self.big)
                }
                // A profile over 4 MiB is refused before it is parsed; a call far over that before it is read.
                let oversized = String(repeating: " ", count: (4 << 20) + 1)
                await KeymapFixture.expectError(invalid, containing: ["profile is 4194305 bytes long"]) {
                    try await keymap.importProfile(oversized)
                }
                let far = String(repeating: " ", count: (16 << 20) + 1)
                await KeymapFixture.expectBusError(
                    limits, containing: ["ImportProfile's arguments are", "at most 4259840"]
                ) {
                    try await keymap.importProfile(far)
                }
                #expect(try await keymap.state().dirty == false)
            }
        }
    }

    static let header = "\"schemaVersion\": 1, \"layout\": \"aula-f87\""

    @Test(
        "malformed or hostile profile JSON gives InvalidArgs naming the problem",
        arguments: [
            ("not json at all", "invalid profile"),
            ("{\(header)}", "layers"),
            ("{\"layout\": \"aula-f87\", \"layers\": [{}]}", "no schemaVersion"),
            (
                "{\"schemaVersion\": \"1\", \"layout\": \"aula-f87\", \"layers\": [{}]}",
                "schemaVersion should be a number"
            ),
            ("{\"schemaVersion\": 99, \"layout\": \"aula-f87\", \"layers\": [{}]}", "newer kblink"),
            ("{\(header), \"layers\": \"KC_A\"}", "layers should be a list"),
            ("{\(header), \"layers\": [{\"A\": 4}]}", "should be a string"),
            ("{\(header), \"layers\": [{\"A\": \"KC_A\"}], \"macros\": [\"x\"]}", "macros should be an object"),
            ("{\(header), \"layers\": []}", "1 to 32 layers"),
            (
                "{\(header), \"layers\": [\(Array(repeating: "{}", count: 33).joined(separator: ","))]}",
                "1 to 32 layers"
            ),
            ("{\(header), \"layers\": [{\"A\": \"KC_NOPE\"}]}", "layer 0, key A: unknown key code 'KC_NOPE'"),
            ("{\(header), \"layers\": [{\"A\": \"MO(3)\"}]}", "layer 3 does not exist"),
            ("{\(header), \"layers\": [{\"A\": \"MACRO(x)\"}]}", "no macro named 'x'"),
            ("{\(header), \"layers\": [{\"KP_1\": \"KC_A\"}]}", "KP_1"),
            ("{\(header), \"layers\": [{\"A\": \"KC_A\"}], \"macros\": {\"m\": \"delay 99999\"}}", "macro 'm'"),
            ("{\"schemaVersion\": 1, \"layout\": \"vgn-98pro\", \"layers\": [{}]}", "for layout vgn-98pro"),
            ("{\(header), \"layers\": [{\"A\": \"KC_A\"}, {}, {}, {}, {}]}", "5 layers and this keyboard 4"),
            (
                "{\(header), \"layers\": \(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))}",
                "invalid profile"
            ),
            (
                "{\(header), \"layers\": [{\"\(String(repeating: "K", count: 2 << 20))\": \"KC_A\"}]}",
                "not a valid key name"
            ),
            ("{\(header), \"layers\": [{\"A\": \"\(String(repeating: "x", count: 2 << 20))\"}]}", "longer than 256"),
            (
                "{\(header), \"layers\": [{\"A\": \"KC_A\"}], \"macros\": {\"m\": \"\(String(repeating: "a,", count: 1 << 20))a\"}}",
                "macro 'm'"
            ),
            ("[\(header)]", "invalid profile"),
            ("{\(header), \"layers\": [{\"A\": null}]}", "invalid profile"),
        ])
    func hostileProfiles(json: String, fragment: String) async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap async throws in
                try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_ESC")
                await KeymapFixture.expectError(.invalidArgs, containing: [fragment]) {
                    try await keymap.importProfile(json)
                }
                // Still answering, and the draft is what it was.
                #expect(try await keymap.diff().map(\.key) == ["CAPS"])
                #expect(try await keymap.state().canRedo == false)
            }
        }
    }

    @Test("wrong argument types get the standard D-Bus errors and change nothing")
    func wrongTypes() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap async throws in
                await KeymapFixture.expectBusError(.invalidArgs, containing: ["SetBinding takes arguments 'suss'"]) {
                    try await keymap.proxy.call(
                        MemberName("SetBinding"), [.string("standard"), .int32(0), .string("A"), .string("KC_B")])
                }
                await KeymapFixture.expectBusError(.invalidArgs, containing: ["GetBindings takes arguments 'su'"]) {
                    try await keymap.proxy.call(MemberName("GetBindings"), [.string("standard")])
                }
                await KeymapFixture.expectBusError(.invalidArgs) {
                    try await keymap.proxy.setProperty(MemberName("CurrentZone"), to: .uint32(1))
                }
                await KeymapFixture.expectBusError(.propertyReadOnly) {
                    try await keymap.proxy.setProperty(MemberName("Layout"), to: .string("ansi-60"))
                }
                await KeymapFixture.expectBusError(.propertyReadOnly) {
                    try await keymap.proxy.setProperty(MemberName("Dirty"), to: .boolean(true))
                }
                await KeymapFixture.expectBusError(.invalidArgs, containing: ["Push takes arguments 'a{sv}'"]) {
                    try await keymap.proxy.call(MemberName("Push"), [])
                }
                let state = try await keymap.state()
                #expect(state.layout == "aula-f87" && !state.dirty)
            }
        }
    }
}
