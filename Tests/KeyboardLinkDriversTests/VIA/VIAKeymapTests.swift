import Testing

@testable import KeyboardLinkDrivers

@Suite("VIA keymap and write plans")
struct VIAKeymapTests {
    @Test("The buffer is layer-major, then row, then column, each keycode big-endian")
    func bufferLayout() throws {
        var keymap = try VIAKeymap(layers: 2, rows: 2, columns: 3)
        try keymap.setKeycode(0x0004, at: VIAKeyPosition(layer: 0, row: 0, column: 1))
        try keymap.setKeycode(0x5220, at: VIAKeyPosition(layer: 1, row: 1, column: 2))
        let bytes = keymap.bufferBytes
        #expect(bytes.count == 24)
        #expect(bytes[2...3] == [0x00, 0x04])
        #expect(bytes[22...23] == [0x52, 0x20])
        #expect(keymap.index(of: VIAKeyPosition(layer: 1, row: 1, column: 2)) == 11)
        #expect(keymap.position(ofIndex: 11) == VIAKeyPosition(layer: 1, row: 1, column: 2))
        #expect(try VIAKeymap(bufferBytes: bytes, layers: 2, rows: 2, columns: 3) == keymap)
    }

    @Test("Bad geometry and out-of-range positions are errors")
    func validation() throws {
        #expect(throws: VIAClientError.self) { try VIAKeymap(layers: 0, rows: 1, columns: 1) }
        #expect(throws: VIAClientError.self) { try VIAKeymap(layers: 255, rows: 255, columns: 255) }
        #expect(throws: VIAClientError.self) { try VIAKeymap(bufferBytes: [0, 1, 2], layers: 1, rows: 1, columns: 2) }
        var keymap = try VIAKeymap(layers: 1, rows: 1, columns: 2)
        #expect(throws: VIAClientError.positionOutsideKeymap(VIAKeyPosition(layer: 0, row: 1, column: 0))) {
            try keymap.setKeycode(1, at: VIAKeyPosition(layer: 0, row: 1, column: 0))
        }
        #expect(keymap.keycode(at: VIAKeyPosition(layer: 1, row: 0, column: 0)) == nil)
    }

    @Test("Nearby changes share one set_buffer report; lone changes use set_keycode")
    func keymapWritePlan() throws {
        let old = try VIAKeymap(layers: 1, rows: 4, columns: 16, fill: 0x0001)
        var new = old
        for index in [0, 5, 13, 14, 40] {
            try new.setKeycode(UInt16(0x100 + index), at: new.position(ofIndex: index))
        }
        let commands = try new.writeCommands(replacing: old)
        // Indices 0...13 fit one 28-byte report (the unchanged ones rewritten as 0x0001); 14 and 40 stand alone.
        var expectedData: [UInt8] = []
        for index in 0...13 {
            let keycode: UInt16 = [0, 5, 13].contains(index) ? UInt16(0x100 + index) : 0x0001
            expectedData += [UInt8(keycode >> 8), UInt8(keycode & 0xFF)]
        }
        #expect(
            commands == [
                .keymapSetBuffer(offset: 0, data: expectedData),
                .setKeycode(layer: 0, row: 0, column: 14, keycode: 0x10E),
                .setKeycode(layer: 0, row: 2, column: 8, keycode: 0x128),
            ])
        #expect(try old.writeCommands(replacing: old).isEmpty)
    }

    @Test("A macro write marks the buffer busy, writes what differs, and clears the last byte last")
    func macroWritePlan() throws {
        let old = [UInt8](repeating: 0, count: 64)
        let commands = try VIAClient.macroWriteCommands(contents: Array("hi".utf8), bufferSize: 64, replacing: old)
        #expect(
            commands == [
                .macroSetBuffer(offset: 63, data: [0xFF]),
                .macroSetBuffer(offset: 0, data: [0x68, 0x69]),
                .macroSetBuffer(offset: 63, data: [0x00]),
            ])
        // Without the old contents everything but the last byte is rewritten, 28 bytes at a time.
        let full = try VIAClient.macroWriteCommands(contents: Array("hi".utf8), bufferSize: 64, replacing: nil)
        #expect(full.count == 5)
        #expect(full.first == .macroSetBuffer(offset: 63, data: [0xFF]))
        #expect(full[1] == .macroSetBuffer(offset: 0, data: Array("hi".utf8) + [UInt8](repeating: 0, count: 26)))
        #expect(full[3] == .macroSetBuffer(offset: 56, data: [UInt8](repeating: 0, count: 7)))
        #expect(full.last == .macroSetBuffer(offset: 63, data: [0x00]))
        // Nothing differs: nothing is written; a dirty last byte alone is just cleared.
        #expect(try VIAClient.macroWriteCommands(contents: [], bufferSize: 64, replacing: old).isEmpty)
        var aborted = old
        aborted[63] = 0xFF
        #expect(
            try VIAClient.macroWriteCommands(contents: [], bufferSize: 64, replacing: aborted) == [
                .macroSetBuffer(offset: 63, data: [0x00])
            ])
    }

    @Test("Macros that do not fit with a final NUL are refused before anything is written")
    func macroTooBig() {
        #expect(throws: VIAClientError.macroBufferTooSmall(needed: 65, available: 64)) {
            try VIAClient.macroWriteCommands(
                contents: [UInt8](repeating: 0x61, count: 64), bufferSize: 64, replacing: nil)
        }
        #expect(throws: VIAClientError.macroBufferTooSmall(needed: 71, available: 64)) {
            try VIAClient.macroWriteCommands(
                contents: [UInt8](repeating: 0x61, count: 70), bufferSize: 64, replacing: nil)
        }
        #expect(throws: VIAClientError.noMacroBuffer) {
            try VIAClient.macroWriteCommands(contents: [], bufferSize: 0, replacing: nil)
        }
    }
}
