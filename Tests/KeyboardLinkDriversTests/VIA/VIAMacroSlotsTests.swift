import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkDrivers

/// The VIA driver's macro buffer: what it writes for a slot table and how it reads a buffer back into slots.
/// Expected bytes are written by hand from the macro buffer table in docs/protocols.md (`0x01 0x01 kc` tap,
/// `0x01 0x02 kc` down, `0x01 0x03 kc` up, `0x01 0x04 "<ms>|"` delay, NUL after each macro; QMK basic keycodes
/// KC_C 0x06, KC_ENTER 0x28, KC_LCTL 0xE0), not produced by the encoder.
@Suite("VIA macro slots")
struct VIAMacroSlotsTests {
    /// `ctrl+c`: LCTL down, tap C, LCTL up.
    static let copyBytes: [UInt8] = [0x01, 0x02, 0xE0, 0x01, 0x01, 0x06, 0x01, 0x03, 0xE0]
    /// `text 'Hi', delay 30, enter`: "Hi", delay "30|", tap ENTER.
    static let signatureBytes: [UInt8] = [0x48, 0x69, 0x01, 0x04, 0x33, 0x30, 0x7C, 0x01, 0x01, 0x28]

    static func copy() throws -> DriverMacroWrite.Entry {
        .init(name: try MacroName("copy"), macro: try Macro(parsing: "ctrl+c"))
    }

    static func signature() throws -> DriverMacroWrite.Entry {
        .init(name: try MacroName("sig"), macro: try Macro(parsing: "text 'Hi', delay 30, enter"))
    }

    @Test("slots encode in slot order with a NUL each; trailing empty slots are left to the zero fill")
    func encodesSlots() throws {
        let write = DriverMacroWrite(slots: [try Self.copy(), nil, try Self.signature(), nil, nil], changed: [0, 2])
        let expected = Self.copyBytes + [0x00] + [0x00] + Self.signatureBytes + [0x00]
        #expect(try VIADriver.buffer(write, capacity: 1_024) == expected)
        // Exactly full is fine: the last byte is the final NUL.
        #expect(try VIADriver.buffer(write, capacity: expected.count) == expected)
    }

    @Test("macros that do not fit are refused, naming each with its size and saying what to do")
    func refusesOverflow() throws {
        let write = DriverMacroWrite(slots: [try Self.copy(), try Self.signature()], changed: [0, 1])
        // 10 + 11 bytes with their NULs.
        do {
            _ = try VIADriver.buffer(write, capacity: 20)
            Issue.record("21 bytes should not fit in 20")
        } catch {
            guard case .notSupported(let message) = error else {
                Issue.record("expected notSupported, got \(error)")
                return
            }
            for fragment in ["21 bytes", "holds 20", "sig (11 bytes)", "copy (10 bytes)", "shorten", "unbind"] {
                #expect(message.contains(fragment), "\(message)")
            }
        }
    }

    @Test("a buffer reads back as QMK plays it: slot by slot, empty past the last NUL")
    func decodesSlots() throws {
        let buffer = Self.copyBytes + [0x00, 0x00] + Self.signatureBytes + [0x00] + [UInt8](repeating: 0, count: 8)
        let slots = VIADriver.decodeSlots(buffer, count: 5)
        #expect(
            slots == [
                .macro(try Macro(parsing: "ctrl+c")), .empty, .macro(try Macro(parsing: "text 'Hi', delay 30, enter")),
                .empty, .empty,
            ])
    }

    @Test("unknown sequences and a half-written buffer read as .other, never as a macro")
    func decodesJunk() throws {
        // Slot 0: 0x01 0x09 is no action; slot 1: "a".
        let junk: [UInt8] = [0x01, 0x09, 0x04, 0x00, 0x61, 0x00, 0x00, 0x00]
        let slots = VIADriver.decodeSlots(junk, count: 2)
        guard case .other = slots[0] else {
            Issue.record("slot 0 should be unreadable, got \(slots[0])")
            return
        }
        #expect(slots[1] == .macro(try Macro(parsing: "text 'a'")))
        // While the last byte is not 0 the firmware plays nothing, so nothing is a macro.
        let busy = VIADriver.decodeSlots([0x61, 0x00, 0x00, 0xFF], count: 2)
        #expect(busy.allSatisfy { if case .other = $0 { true } else { false } })
    }
}
