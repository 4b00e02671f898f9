import Foundation
import KeyboardLinkTestSupport
import Testing

@testable import KBlinkAPI
@testable import KeyboardLinkDBus
@testable import KeyboardLinkKeymap

/// Seeded fuzzing of the profile parser and the macro syntax: mutated and generated inputs never crash, every
/// failure is a `KeymapError` with a short message, and every success round-trips. `KBLINK_FUZZ_CASES` raises the
/// number of cases (CI runs it for minutes); the default keeps the test suite quick.
@Suite("Fuzzing the profile parser and the macro syntax")
struct KeymapFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["KBLINK_FUZZ_CASES"] ?? "") ?? 3_000

    /// A valid profile with bindings of every kind and macros, as exported.
    static func seedProfile() throws -> (session: KeymapEditSession, json: String) {
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        try session.setMacro(name: "sig", definition: "text 'Best \\'regards\\'', delay 30, enter")
        try session.setMacro(name: "copy", definition: "ctrl+c")
        try session.setBinding(zone: "", layer: 0, key: "CAPS", action: "LCTL_T(KC_ESC)")
        try session.setBinding(zone: "", layer: 1, key: "KP_1", action: "MACRO(sig)")
        try session.setBinding(zone: "", layer: 2, key: "F1", action: "LT(3, KC_SPC)")
        try session.setBinding(zone: "", layer: 3, key: "UP", action: "MT(MOD_LCTL | MOD_LSFT, KC_A)")
        try session.setBinding(zone: "", layer: 0, key: "FN", action: "TG(2)")
        return (session, session.exportProfileJSON())
    }

    static let tokens: [String] = [
        "{", "}", "[", "]", "\"", ":", ",", "null", "true", "false", "-1", "0", "1e309", "-0.5", "99999999999999999999",
        "\"KC_A\"", "\"MO(31)\"", "\"MACRO(x)\"", "\"schemaVersion\"", "\"layers\"", "\"macros\"", "\"layout\"",
        "\\u0000", "\\ud800", "\u{0}", "é", "\u{1F600}", "\"\"", "{}", "[]", "[[[[[[[[", "]]]]", "\\", "/*", "\n",
        String(repeating: "[", count: 600), String(repeating: "x", count: 5_000),
    ]

    /// Checks that an error is short and says what is wrong.
    static func checkClear(_ error: KeymapError, _ input: String) {
        let text = error.description
        #expect(!text.isEmpty)
        #expect(text.count < 2_000, "an overlong message for \(input.prefix(80))")
    }

    @Test("mutated exported profiles: parsed and round-tripped, or refused with a short KeymapError")
    func profileParser() throws {
        let seed = try Self.seedProfile()
        let original = Array(seed.json.utf8)
        var random = SeededRandom(seed: 0xF022_0001)
        var accepted = 0
        var refused = 0
        for _ in 0..<Self.cases {
            let bytes = random.mutated(original, splicing: Self.tokens)
            do {
                let document = try ProfileDocument(json: bytes)
                #expect(try ProfileDocument(json: document.json()) == document)
                var session = seed.session
                do {
                    try session.importProfile(document)
                    #expect(session.exportProfile().keymap.layerCount == 4)
                } catch {
                    Self.checkClear(error, String(decoding: bytes, as: UTF8.self))
                }
                accepted += 1
            } catch {
                Self.checkClear(error, String(decoding: bytes, as: UTF8.self))
                #expect(error.category == .invalidArgs || error.category == .notFound)
                refused += 1
            }
        }
        // Both paths were exercised: some mutations keep the document valid (a changed action), most break it.
        #expect(accepted > 0 && refused > accepted)
    }

    @Test("mutated stored profiles (drafts with operation logs): loaded and replayed, or refused")
    func storedProfileParser() throws {
        let seed = try Self.seedProfile()
        let address = try KeyboardAddress("98:00:00:00:98:01")
        let original = StoredProfile(address: address, session: seed.session).json()
        var random = SeededRandom(seed: 0x5702_ED00)
        var accepted = 0
        for _ in 0..<Self.cases {
            let bytes = random.mutated(original, splicing: Self.tokens)
            do {
                let profile = try StoredProfile(json: bytes)
                #expect(try StoredProfile(json: profile.json()) == profile)
                do {
                    _ = try profile.session(layout: seed.session.layout)
                } catch {
                    Self.checkClear(error, "")
                }
                accepted += 1
            } catch {
                Self.checkClear(error, String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(accepted > 0)
    }

    static let macroWords = [
        "tap", "press", "release", "delay", "text", "ctrl", "shift", "alt", "gui", "rctrl", "enter", "KC_ENT", "kp_1",
        "f5", "a", "z", "1", "space", "cmd", "win", "super", "meta", "option", "left_bracket", "0", "50", "10000",
        "10001", "-1", "99999999999999999999", "'hi'", "\"it's\"", "'a\\'b'", "'", "\"", "\\", "'é'", "KC_NOPE",
        "MO(1)", "+", ",", ", ", " ", "\t", "\n", "++", ",,", "ctrl+", "+a",
    ]

    @Test("generated macro texts: parsed and round-tripped, or refused with a short KeymapError")
    func macroSyntax() throws {
        var random = SeededRandom(seed: 0x3AC2_0000)
        var accepted = 0
        var refused = 0
        for _ in 0..<Self.cases {
            var text = ""
            for _ in 0..<Int.random(in: 0...14, using: &random) {
                text += Self.macroWords.randomElement(using: &random) ?? ""
                if Bool.random(using: &random) { text += " " }
            }
            if Int.random(in: 0..<8, using: &random) == 0 {
                text = String(decoding: random.mutated(Array(text.utf8), splicing: Self.tokens), as: UTF8.self)
            }
            do {
                let macro = try Macro(parsing: text)
                #expect(try Macro(parsing: macro.description) == macro, "\(text)")
                accepted += 1
            } catch {
                Self.checkClear(error, text)
                #expect(error.category == .invalidArgs)
                refused += 1
            }
        }
        #expect(accepted > 0 && refused > 0)
    }

    @Test("fuzzed profiles and macros over D-Bus: every answer is a success or InvalidArgs/NotFound")
    func overTheBus() async throws {
        let seed = try Self.seedProfile()
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { keymap async throws in
                var random = SeededRandom(seed: 0xB05_F022)
                var answers = 0
                for round in 0..<200 {
                    // D-Bus strings cannot carry NUL (the client library refuses them before sending).
                    let mutated = random.mutated(Array(seed.json.utf8), splicing: Self.tokens).map {
                        $0 == 0 ? 0x20 : $0
                    }
                    let profile = String(decoding: mutated, as: UTF8.self)
                    let macro = (0..<6).map { _ in Self.macroWords.randomElement(using: &random) ?? "" }.joined()
                    for call in [
                        { _ = try await keymap.importProfile(profile) },
                        {
                            try await keymap.setMacro(name: "f\(round % 7)", definition: macro)
                        },
                    ] {
                        do {
                            try await call()
                        } catch let error as KBlinkError {
                            #expect([.invalidArgs, .notFound].contains(error.code), "\(error)")
                            #expect(!error.message.isEmpty)
                        }
                        answers += 1
                    }
                }
                #expect(answers == 400)
                #expect(try await keymap.state().layout == "vgn-98pro", "still answering")
            }
        }
    }
}
