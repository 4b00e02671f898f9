import Testing

@testable import KeyboardLinkPresence

@Suite struct CapabilityBitmapTests {
    @Test func lastWordIsWordZero() throws {
        let bitmap = try CapabilityBitmap(parsing: "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe")
        #expect(bitmap.words == [0xFFFF_FFFF_FFFF_FFFE, 0xFEFF_FFDF_FFEF_FFFF, 0x0380_3078_F800_D001, 0x4_0200_0000])
        #expect(bitmap.word(0) == 0xFFFF_FFFF_FFFF_FFFE)
        #expect(bitmap.word(3) == 0x4_0200_0000)
        #expect(bitmap.word(4) == 0)
        #expect(bitmap.word(-1) == 0)
    }

    @Test func bitsAcrossWords() throws {
        // The power button: KEY_POWER is 116, bit 52 of word 1.
        let power = try CapabilityBitmap(parsing: "10000000000000 0")
        #expect(power.contains(116))
        #expect(!power.contains(115))
        #expect(!power.contains(1))
        // A mouse: BTN_LEFT..BTN_TASK are 272...279, bits 16-23 of word 4.
        let mouse = try CapabilityBitmap(parsing: "ff0000 0 0 0 0")
        #expect((272...279).allSatisfy { mouse.contains($0) })
        #expect(!mouse.contains(271))
        #expect(!mouse.contains(280))
        #expect(!mouse.contains(-3))
        #expect(!mouse.contains(10_000))
    }

    @Test func evBitmap() throws {
        // EV=120013: EV_SYN 0, EV_KEY 1, EV_MSC 4, EV_LED 17, EV_REP 20.
        let ev = try CapabilityBitmap(parsing: "120013")
        #expect([0, 1, 4, 17, 20].allSatisfy { ev.contains($0) })
        #expect(!ev.contains(2))
    }

    @Test func zeroWordsAreTrimmedAndPrinted() throws {
        #expect(try CapabilityBitmap(parsing: "0").words.isEmpty)
        #expect(try CapabilityBitmap(parsing: "0 0 5").words == [5])
        #expect(try CapabilityBitmap(parsing: "0").description == "0")
        let text = "3e000b00000000 0 0 0"
        #expect(try CapabilityBitmap(parsing: text).description == text)
        #expect(CapabilityBitmap(words: [1, 0, 0]).description == "1")
    }

    @Test(arguments: [
        ("", "no words"),
        ("   ", "no words"),
        ("12 xyz", "word \"xyz\" is not hex"),
        ("-1", "word \"-1\" is not hex"),
        ("+1", "word \"+1\" is not hex"),
        ("1ffffffffffffffff", "longer than 64 bits"),
    ])
    func malformed(text: String, reason: String) throws {
        let error = try #require(throws: CapabilityBitmapError.self) { try CapabilityBitmap(parsing: text) }
        #expect(error.reason.contains(reason), "\(error.reason)")
    }
}
