import Foundation
import KeyboardLinkKeymap
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymapFiles

/// Seeded fuzzing of the keymap-file readers (ZMK devicetree and preprocessor, QMK and Vial JSON): mutated files
/// and files spliced from the grammar's tokens never crash or hang; every failure is a `KeymapFileError` on a line
/// and column inside the file with a short reason, and every success holds only what kblink can hold on the
/// layout. `KBLINK_FUZZ_CASES` raises the number of cases (CI runs it for minutes); the default keeps the suite
/// quick.
@Suite("Fuzzing the keymap-file readers")
struct KeymapFileFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["KBLINK_FUZZ_CASES"] ?? "") ?? 600

    static let tokens: [String] = [
        "{", "}", "<", ">", ";", "=", "&", "(", ")", ",", ":", "/", "\"", "\n", "//", "/*", "*/", "#include", "#define",
        "#define X", "#define Y Y", "#define Z &kp Z", "#if", "\\\n", "&kp", "&mt", "&lt", "&mo", "&trans", "&none",
        "&sl", "&bt", "LC(", "LS(LA(TAB))", "bindings", "compatible = \"zmk,keymap\";", "zmk,behavior-macro",
        "&macro_tap", "&macro_wait_time 99999", "#binding-cells = <0>;", "[", "]", "\"KC_A\"", "\"MO(31)\"", "-1",
        "1e999", "\"M0\"", "\"QK_MACRO_127\"", "\"LT15(KC_A)\"", "null", "\\u0000", "\\ud800", "é", "\u{0}",
        String(repeating: "(", count: 300), String(repeating: "[", count: 300), String(repeating: "x", count: 3_000),
    ]

    /// The candidate as a Swift string literal, so a failure found in CI can be replayed from its log.
    static func shown(_ text: String) -> String {
        text.debugDescription
    }

    /// Reads one candidate; checks what a refusal or a success says.
    static func check(_ bytes: [UInt8], _ format: KeymapFileFormat, _ layout: PhysicalLayout, names: [MacroName]) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let content = try KeymapFiles.read(text, as: format, layout: layout, macroNames: names)
            #expect((1...Keymap.maximumLayers).contains(content.layers.count))
            for layer in content.layers {
                #expect(layer.keys.allSatisfy(layout.contains))
                for action in layer.values {
                    if let target = action.referencedLayer { #expect(target < content.layers.count) }
                    if let macro = action.referencedMacro {
                        #expect(content.macros[macro] != nil, "\(macro) is not defined in \(shown(text))")
                    }
                }
            }
        } catch {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(error.line >= 1 && error.line <= lines + 1, "\(error)")
            #expect(error.column >= 1, "\(error)")
            #expect(!error.reason.isEmpty && error.reason.utf8.count < 600, "\(error) for \(shown(text))")
        }
    }

    @Test(
        "mutated ZMK, QMK and Vial files are read or refused with a place and a reason",
        arguments: [
            KeymapFileFormat.zmk, .qmk, .vil,
        ])
    func mutated(format: KeymapFileFormat) throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        let names = keymap.macros.keys.sorted()
        var seeds = [
            Array(try KeymapFiles.write(KeymapFileContent(keymap), as: format, layout: layout, keyboard: "T").utf8)
        ]
        if format == .zmk { seeds.append(Array(KeymapFileFixtures.handWrittenZMK.utf8)) }
        var random = SeededRandom(seed: 0x6b65_796d_6170 &+ UInt64(format.rawValue.utf8.count))
        for index in 0..<Self.cases {
            let seed = seeds[index % seeds.count]
            Self.check(random.mutated(seed, splicing: Self.tokens), format, layout, names: names)
        }
    }

    @Test("deep nesting, runaway #defines and huge files are refused, not recursed into")
    func hostileShapes() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let deep = String(repeating: "a {", count: 10_000)
        #expect(throws: KeymapFileError.self) { try KeymapFiles.read(deep, as: .zmk, layout: layout) }
        var chain = "#define D0 &kp A &kp A\n"
        for level in 1..<40 { chain += "#define D\(level) D\(level - 1) D\(level - 1)\n" }
        chain += "/ { keymap { compatible = \"zmk,keymap\"; l { bindings = <D39>; }; }; };\n"
        let runaway = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.read(chain, as: .zmk, layout: layout)
        }
        #expect(runaway.reason.contains("expands"), "\(runaway)")
        let json = String(repeating: "[", count: 5_000)
        #expect(throws: KeymapFileError.self) { try KeymapFiles.read(json, as: .qmk, layout: layout) }
        let huge = String(repeating: " ", count: KeymapFiles.maximumFileSize + 1)
        let tooBig = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.read(huge, as: .vil, layout: layout)
        }
        #expect(tooBig.reason.contains("larger than"))
    }
}
