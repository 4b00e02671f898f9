import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

/// Bytes computed by hand from QMK's dynamic macro format: `0x01 0x01 kc` tap, `0x01 0x02 kc` down,
/// `0x01 0x03 kc` up, `0x01 0x04 <digits> '|'` delay, printable ASCII as itself, NUL after each macro.
@Suite("VIA macro buffer encoding")
struct ViaMacroCodecTests {
    static let cases: [(String, [UInt8])] = [
        ("ctrl+c", [0x01, 0x02, 0xE0, 0x01, 0x01, 0x06, 0x01, 0x03, 0xE0]),
        ("text 'hi'", [0x68, 0x69]),
        ("delay 50", [0x01, 0x04, 0x35, 0x30, 0x7C]),
        ("tap enter", [0x01, 0x01, 0x28]),
        ("press shift, release shift", [0x01, 0x02, 0xE1, 0x01, 0x03, 0xE1]),
        ("delay 10000", [0x01, 0x04, 0x39, 0x39, 0x39, 0x39, 0x7C, 0x01, 0x04, 0x31, 0x7C]),
        ("ctrl+shift+esc", [0x01, 0x02, 0xE0, 0x01, 0x02, 0xE1, 0x01, 0x01, 0x29, 0x01, 0x03, 0xE1, 0x01, 0x03, 0xE0]),
        ("volume_up", [0x01, 0x01, 0xA9]),
        (
            "ctrl+c, delay 50, text 'hello', tap enter",
            [
                0x01, 0x02, 0xE0, 0x01, 0x01, 0x06, 0x01, 0x03, 0xE0, 0x01, 0x04, 0x35, 0x30, 0x7C,
                0x68, 0x65, 0x6C, 0x6C, 0x6F, 0x01, 0x01, 0x28,
            ]
        ),
    ]

    @Test("known macros encode to the expected bytes and decode back", arguments: cases)
    func known(text: String, bytes: [UInt8]) throws {
        let macro = try Macro(parsing: text)
        #expect(try ViaMacroCodec.encode(macro) == bytes)
        #expect(macro.viaEncodedSize == bytes.count + 1)
        #expect(try ViaMacroCodec.decode(bytes) == macro.normalized())
    }

    @Test("a buffer holds the macros in slot order, each ended by NUL, empty slots as a lone NUL")
    func buffer() throws {
        let first = try Macro(parsing: "text 'a'")
        let third = try Macro(parsing: "enter")
        let buffer = try ViaMacroCodec.encodeBuffer([first, nil, third])
        #expect(buffer == [0x61, 0x00, 0x00, 0x01, 0x01, 0x28, 0x00])
        #expect(try ViaMacroCodec.decodeBuffer(buffer + [0, 0, 0, 0], count: 3) == [first, nil, third])
        #expect(throws: KeymapError.self) { try ViaMacroCodec.encodeBuffer([first, nil, third], capacity: 6) }
        #expect(throws: KeymapError.self) { try ViaMacroCodec.decodeBuffer(buffer, count: 4) }
    }

    @Test("random macros decode to their canonical form")
    func randomRoundTrip() throws {
        var random = SeededRandom(seed: 42)
        for _ in 0..<500 {
            let macro = try Macro(steps: RandomMacroSteps.random(using: &random))
            let bytes = try ViaMacroCodec.encode(macro)
            #expect(!bytes.contains(0), "a NUL inside a macro would end it early")
            #expect(try ViaMacroCodec.decode(bytes) == macro.normalized(), "\(macro)")
        }
    }

    @Test("control characters QMK types become key taps")
    func controlCharacters() throws {
        #expect(try ViaMacroCodec.decode([0x61, 0x0A, 0x09]).description == "text 'a', enter, tab")
    }

    @Test(
        "broken bytes are refused",
        arguments: [
            [UInt8]([0x01]), [0x01, 0x01], [0x01, 0x09, 0x04], [0x01, 0x04, 0x35], [0x01, 0x04, 0x7C],
            [0x01, 0x04, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x7C], [0x80], [0x02], [0x01, 0x01, 0xCD],
        ])
    func broken(bytes: [UInt8]) {
        #expect(throws: KeymapError.self) { try ViaMacroCodec.decode(bytes) }
    }
}
