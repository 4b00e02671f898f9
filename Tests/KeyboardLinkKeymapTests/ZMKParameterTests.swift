import Testing

@testable import KeyboardLinkKeymap

/// Expected values computed by hand from ZMK's encoding: `(modifiers << 24) | (usage_page << 16) | usage_id`,
/// page 0x07 keyboard, 0x0C consumer; modifier bits 0x01 LCtrl, 0x02 LShift, 0x04 LAlt, 0x08 LGUI, 0x40 RAlt.
@Suite("ZMK key-press parameters")
struct ZMKParameterTests {
    @Test(
        "key presses encode to param1 and decode back",
        arguments: [
            ("&kp A", UInt32(0x0007_0004)),
            ("&kp N1", 0x0007_001E),
            ("&kp LS(N1)", 0x0207_001E),
            ("&kp LC(C)", 0x0107_0006),
            ("&kp LC(LS(A))", 0x0307_0004),
            ("&kp RA(Q)", 0x4007_0014),
            ("&kp C_VOL_UP", 0x000C_00E9),
            ("&kp C_AL_CALC", 0x000C_0192),
            ("&kp KP_N1", 0x0007_0059),
            ("&kp LGUI", 0x0007_00E3),
        ])
    func param1(text: String, value: UInt32) throws {
        guard case .key(let press) = try KeyAction(parsing: text) else {
            Issue.record("\(text) is not a key press")
            return
        }
        #expect(try press.zmkParam1() == value)
        #expect(KeyPress(zmkParam1: value) == press)
    }

    @Test("page 0 reads as the keyboard page, as ZMK does")
    func implicitPage() {
        #expect(KeyPress(zmkParam1: 0x0000_0004) == KeyPress(.keyboard(0x04)))
    }

    @Test("a page beyond 8 bits cannot be a parameter")
    func widePage() {
        #expect(throws: KeymapError.self) { try KeyPress(HIDUsage(page: 0xFF60, id: 1)).zmkParam1() }
    }
}
