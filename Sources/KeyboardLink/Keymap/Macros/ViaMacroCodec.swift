/// The VIA macro-buffer encoding (QMK's dynamic macros), to check that macros fit and to write and read them.
///
/// Inside a macro, printable ASCII bytes type themselves; `0x01 0x01 kc` taps, `0x01 0x02 kc` presses and
/// `0x01 0x03 kc` releases the QMK basic keycode `kc`; `0x01 0x04` then decimal digits then `|` waits that many
/// milliseconds (QMK reads at most 4 digits, so longer delays are written as several). Each macro ends with a NUL;
/// the buffer holds the macros in slot order. A chord taps as presses of its modifiers (lowest bit first), a tap of
/// the key, then releases in reverse order.
package enum ViaMacroCodec {
    static let prefix: UInt8 = 0x01
    static let tapCode: UInt8 = 0x01
    static let downCode: UInt8 = 0x02
    static let upCode: UInt8 = 0x03
    static let delayCode: UInt8 = 0x04
    /// QMK's delay field holds at most 4 digits.
    static let longestDelayChunk = 9_999

    /// The bytes of one macro, without its terminating NUL.
    /// - Throws: `KeymapError.notEncodable` for a key without a QMK basic keycode (impossible for a validated
    ///   macro, checked anyway).
    package static func encode(_ macro: Macro) throws(KeymapError) -> [UInt8] {
        var bytes: [UInt8] = []
        for step in macro.steps {
            switch step {
            case .tap(let press):
                let modifierCodes = try press.modifiers.members.compactMap(\.usage).map { usage throws(KeymapError) in
                    try keycode(usage)
                }
                for code in modifierCodes { bytes += [prefix, downCode, code] }
                bytes += [prefix, tapCode, try keycode(press.usage)]
                for code in modifierCodes.reversed() { bytes += [prefix, upCode, code] }
            case .press(let usage):
                bytes += [prefix, downCode, try keycode(usage)]
            case .release(let usage):
                bytes += [prefix, upCode, try keycode(usage)]
            case .delay(let milliseconds):
                var remaining = milliseconds
                repeat {
                    let chunk = min(remaining, longestDelayChunk)
                    bytes += [prefix, delayCode] + Array(String(chunk).utf8) + [UInt8(ascii: "|")]
                    remaining -= chunk
                } while remaining > 0
            case .text(let text):
                bytes += Array(text.utf8)
            }
        }
        return bytes
    }

    /// The bytes a macro takes in the keyboard's macro buffer, its terminating NUL included.
    package static func encodedSize(of macro: Macro) throws(KeymapError) -> Int {
        try encode(macro).count + 1
    }

    /// The whole macro buffer: each macro's bytes and a NUL, in slot order; `nil` slots are empty macros.
    /// - Parameter capacity: the keyboard's buffer size (VIA `macro_get_buffer_size`); nil skips the check.
    /// - Throws: `KeymapError.notEncodable` when the macros do not fit, saying by how much.
    package static func encodeBuffer(_ macros: [Macro?], capacity: Int? = nil) throws(KeymapError) -> [UInt8] {
        var buffer: [UInt8] = []
        for macro in macros {
            if let macro { buffer += try encode(macro) }
            buffer.append(0)
        }
        if let capacity, buffer.count > capacity {
            throw .notEncodable(
                "\(macros.count) macros", target: "the keyboard's macro buffer",
                reason: "they need \(buffer.count) bytes and the keyboard has \(capacity)")
        }
        return buffer
    }

    /// Reads one macro's bytes (up to, not including, its NUL) into its canonical form (`Macro.normalized()`).
    /// Control characters that QMK types (backspace, tab, newline, escape) become key taps.
    /// - Throws: `KeymapError.invalidMacro` for truncated or unknown sequences and keycodes kblink cannot name.
    package static func decode(_ bytes: some Collection<UInt8>) throws(KeymapError) -> Macro {
        let data = Array(bytes)
        var steps: [MacroStep] = []
        var text = ""
        var index = 0
        func flushText() {
            if !text.isEmpty {
                steps.append(.text(text))
                text = ""
            }
        }
        while index < data.count {
            let byte = data[index]
            if byte == prefix {
                guard index + 1 < data.count else { throw .invalidMacro("the macro ends inside a key sequence") }
                let code = data[index + 1]
                switch code {
                case tapCode, downCode, upCode:
                    guard index + 2 < data.count else { throw .invalidMacro("the macro ends before a keycode") }
                    let usage = try usage(forKeycode: data[index + 2])
                    flushText()
                    steps.append(
                        code == tapCode ? .tap(KeyPress(usage)) : code == downCode ? .press(usage) : .release(usage))
                    index += 3
                case delayCode:
                    var digits = ""
                    var cursor = index + 2
                    while cursor < data.count, data[cursor] != UInt8(ascii: "|") {
                        guard (0x30...0x39).contains(data[cursor]), digits.count < 5 else {
                            throw .invalidMacro("a delay must be 1 to 5 digits followed by '|'")
                        }
                        digits.append(Character(Unicode.Scalar(data[cursor])))
                        cursor += 1
                    }
                    guard cursor < data.count, let milliseconds = Int(digits) else {
                        throw .invalidMacro("a delay must be 1 to 5 digits followed by '|'")
                    }
                    flushText()
                    steps.append(.delay(milliseconds: milliseconds))
                    index = cursor + 1
                default:
                    throw .invalidMacro("unknown macro sequence 0x01 \(HIDUsage.hex(code, digits: 2))")
                }
            } else if (0x20...0x7E).contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
                index += 1
            } else if let usage = controlCharacterKeys[byte] {
                flushText()
                steps.append(.tap(KeyPress(usage)))
                index += 1
            } else {
                throw .invalidMacro("byte \(HIDUsage.hex(byte, digits: 2)) is neither text nor a key sequence")
            }
        }
        flushText()
        return try Macro(steps: steps).normalized()
    }

    /// Splits a macro buffer into `count` macros; empty slots are nil. Bytes after the last macro are ignored.
    /// - Throws: `KeymapError.invalidMacro` naming the slot that does not decode or is not terminated.
    package static func decodeBuffer(_ buffer: [UInt8], count: Int) throws(KeymapError) -> [Macro?] {
        var macros: [Macro?] = []
        var start = 0
        for slot in 0..<max(0, count) {
            guard let end = buffer[start...].firstIndex(of: 0) else {
                throw .invalidMacro("macro slot \(slot) is not terminated by a NUL byte")
            }
            if end == start {
                macros.append(nil)
            } else {
                do {
                    macros.append(try decode(buffer[start..<end]))
                } catch {
                    throw .invalidMacro("macro slot \(slot): \(error.description)")
                }
            }
            start = end + 1
        }
        return macros
    }

    private static func keycode(_ usage: HIDUsage) throws(KeymapError) -> UInt8 {
        guard let code = KeycodeTable.shared.qmkBasicCode(for: usage), (0x04...0xFF).contains(code) else {
            throw .notEncodable(KeyAction.key(usage).description, target: "a VIA macro", reason: "no basic keycode")
        }
        return UInt8(code)
    }

    private static func usage(forKeycode code: UInt8) throws(KeymapError) -> HIDUsage {
        guard let usage = KeycodeTable.shared.usage(forQMKBasicCode: UInt16(code)) else {
            throw .invalidMacro("keycode \(HIDUsage.hex(code, digits: 2)) in a macro is not a key kblink knows")
        }
        return usage
    }

    /// The keys QMK's `send_string` types for control characters.
    private static let controlCharacterKeys: [UInt8: HIDUsage] = [
        0x08: .keyboard(0x2A), 0x09: .keyboard(0x2B), 0x0A: .keyboard(0x28), 0x1B: .keyboard(0x29),
    ]
}

extension Macro {
    /// The bytes this macro takes in a VIA macro buffer, its terminating NUL included.
    package var viaEncodedSize: Int { (try? ViaMacroCodec.encodedSize(of: self)) ?? 0 }
}
