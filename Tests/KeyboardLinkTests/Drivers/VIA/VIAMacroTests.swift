import Testing

@testable import KeyboardLink

@Suite("VIA macro encoding")
struct VIAMacroTests {
    @Test("Text, taps, presses, releases and delays encode to the bytes QMK plays")
    func encoding() throws {
        let macros = [
            VIAMacro(actions: [.text("Hi\n")]),
            VIAMacro(actions: [.press(0xE0), .tap(0x06), .release(0xE0), .delay(milliseconds: 250), .text("ok")]),
        ]
        let bytes = try VIAMacro.encode(macros)
        #expect(
            bytes == [
                0x48, 0x69, 0x0A, 0x00,
                0x01, 0x02, 0xE0, 0x01, 0x01, 0x06, 0x01, 0x03, 0xE0, 0x01, 0x04, 0x32, 0x35, 0x30, 0x7C, 0x6F, 0x6B,
                0x00,
            ])
        #expect(try VIAMacro.decode(bytes + [0, 0, 0], count: 3) == macros + [VIAMacro(actions: [])])
    }

    @Test("Characters, keycodes and delays the encoding cannot carry are refused")
    func refused() {
        #expect(throws: VIAMacro.CodingError.unsupportedCharacter(macro: 0, character: "é")) {
            try VIAMacro.encode([VIAMacro(actions: [.text("café")])])
        }
        #expect(throws: VIAMacro.CodingError.zeroKeycode(macro: 1)) {
            try VIAMacro.encode([VIAMacro(actions: []), VIAMacro(actions: [.tap(0)])])
        }
        #expect(throws: VIAMacro.CodingError.delayOutOfRange(macro: 0, milliseconds: 100_000)) {
            try VIAMacro.encode([VIAMacro(actions: [.delay(milliseconds: 100_000)])])
        }
    }

    @Test("Unknown or cut-short actions in a buffer are errors")
    func malformedBuffers() {
        #expect(throws: VIAMacro.CodingError.malformedAction(macro: 0, offset: 1)) {
            try VIAMacro.decode([0x61, 0x01, 0x09, 0x04, 0x00], count: 1)
        }
        #expect(throws: VIAMacro.CodingError.malformedAction(macro: 1, offset: 1)) {
            try VIAMacro.decode([0x00, 0x01, 0x01, 0x00], count: 2)
        }
        #expect(throws: VIAMacro.CodingError.malformedAction(macro: 0, offset: 0)) {
            try VIAMacro.decode([0x01, 0x04, 0x31, 0x32, 0x00], count: 1)
        }
    }
}
