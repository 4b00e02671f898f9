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
            // The keyboard's own keymap, read into the base on connection.
            let owners0 = try await CLITrustTests.layer(demo, 0)
            let owners1 = try await CLITrustTests.layer(demo, 1)
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
            // Nothing was written: with CAPS and F1 back as the keyboard has them, only A is left to write, over
            // what the keyboard's owner had there.
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", try #require(owners0["CAPS"])])
            _ = try await demo.ok(["keymap", "set", "aula", "F1", try #require(owners1["F1"]), "--layer", "1"])
            let ok = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--dry-run", "--json"]))
                    as? [String: Any])
            #expect((ok["changes"] as? [[String: Any]])?.map { $0["old"] as? String } == [owners0["A"]])
        }
    }
}

/// `kblink watch` in words, and every stream ending with a message and exit code 3 when kblinkd goes away.
@Suite("watch and streams")
struct WatchStreamTests {
    @Test("watch prints events in words and exits 3 with a message when kblinkd stops")
    func watchInWords() async throws {
        try await DemoDaemon.run { demo in
            let watch = try ChildProcess(DaemonHarness.binary("kblink"), ["watch", "--bus", demo.address])
            defer { watch.signal(SIGKILL) }
            #expect(await eventually { watch.standardOutput.contains("Watching kblinkd") })
            _ = try await demo.ok(["disconnect", "aula"])
            #expect(
                await eventually { watch.standardOutput.contains("Aula F87: disconnected") }, "\(watch.standardOutput)")
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", "KC_LCTL"])
            #expect(
                await eventually { watch.standardOutput.contains("Aula F87: the keymap draft has changes") },
                "\(watch.standardOutput)")
            #expect(!watch.standardOutput.contains("dev_F8_70"), "\(watch.standardOutput)")
            demo.stop()
            let result = await watch.wait()
            #expect(result.status == 3, "\(result.standardError)")
            #expect(result.standardError.contains("kblinkd went away"), "\(result.standardError)")
        }
    }

    @Test("watch --json keeps the raw events; scan ends with exit 3 when kblinkd stops")
    func jsonAndScan() async throws {
        try await DemoDaemon.run { demo in
            let watch = try ChildProcess(DaemonHarness.binary("kblink"), ["watch", "--json", "--bus", demo.address])
            defer { watch.signal(SIGKILL) }
            let scan = try ChildProcess(
                DaemonHarness.binary("kblink"), ["scan", "--timeout", "60", "--bus", demo.address])
            defer { scan.signal(SIGKILL) }
            #expect(await eventually { scan.standardOutput.contains("Scanning") })
            // watch --json prints nothing until an event: act once it has subscribed to kblinkd's signals.
            try await waitForSubscription(
                onBus: demo.address, process: watch.process.processIdentifier, containing: "path_namespace")
            _ = try await demo.ok(["disconnect", "aula"])
            #expect(
                await eventually { watch.standardOutput.contains("\"Connected\":false") }, "\(watch.standardOutput)")
            #expect(watch.standardOutput.contains("\"event\":\"changed\""))
            demo.stop()
            let scanned = await scan.wait()
            #expect(scanned.status == 3, "\(scanned.standardError)")
            #expect(scanned.standardError.contains("kblinkd went away"))
            #expect(await watch.wait().status == 3)
        }
    }
}
