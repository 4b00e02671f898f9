import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Push problems come early and all at once: `set` warns, `push --dry-run` lists every problem by key and layer and
/// exits 1, a real push refuses before writing. The real `kblink` against `kblinkd-demo` (ZMK Studio on the Aula,
/// whose simulated firmware has no Layer-Tap behaviour and no macros).
@Suite("push pre-flight")
struct PushPreflightTests {
    @Test("set warns at once; push --dry-run lists every problem with key, layer and action; push refuses them all")
    func preflight() async throws {
        try await DemoDaemon.run { demo in
            let tap = try await demo.kblink(["keymap", "set", "aula", "CAPS", "LT(1, KC_SPC)"])
            #expect(tap.status == 0, "\(tap.standardError)")
            #expect(tap.standardError.contains("warning"), "\(tap.standardError)")
            #expect(tap.standardError.contains("CAPS") && tap.standardError.contains("LT(1, KC_SPC)"))
            _ = try await demo.ok(["macro", "set", "aula", "sig", "text 'hi'"])
            let macro = try await demo.kblink(["keymap", "set", "aula", "F1", "MACRO(sig)", "--layer", "1"])
            #expect(macro.standardError.contains("ZMK has no runtime macros"), "\(macro.standardError)")
            // A key the firmware can hold: no warning.
            let fine = try await demo.kblink(["keymap", "set", "aula", "A", "KC_B"])
            #expect(fine.status == 0 && fine.standardError.isEmpty, "\(fine.standardError)")

            let dry = try await demo.kblink(["keymap", "push", "aula", "--dry-run", "--json"])
            #expect(dry.status == 1, "\(dry.standardError)")
            let plan = try #require(try DemoDaemon.json(dry.standardOutput) as? [String: Any])
            let problems = try #require(plan["problems"] as? [[String: Any]])
            #expect(
                problems.map { "\($0["layer"] as? Int ?? -1)/\($0["key"] as? String ?? "")" } == ["0/CAPS", "1/F1"])
            #expect(problems.first?["action"] as? String == "LT(1, KC_SPC)")
            #expect((plan["changes"] as? [[String: Any]])?.count == 3)

            let push = try await demo.kblink(["keymap", "push", "aula"])
            #expect(push.status == 1)
            #expect(push.standardError.contains("cannot hold 2 binding(s)"), "\(push.standardError)")
            #expect(push.standardError.contains("CAPS on layer 0") && push.standardError.contains("F1 on layer 1"))
            #expect(push.standardError.contains("nothing was written"), "\(push.standardError)")
            // Nothing was written: the keyboard still has A as A.
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", "KC_CAPS"])
            _ = try await demo.ok(["keymap", "set", "aula", "F1", "KC_TRNS", "--layer", "1"])
            let ok = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--dry-run", "--json"]))
                    as? [String: Any])
            #expect((ok["changes"] as? [[String: Any]])?.map { $0["old"] as? String } == ["KC_A"])
        }
    }
}
