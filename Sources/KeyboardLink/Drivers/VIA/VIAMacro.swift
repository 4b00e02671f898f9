/// A VIA macro and the encoding of the macro buffer: macros separated by NUL, each a run of text and
/// `0x01`-prefixed actions (tap, press, release, delay).
public struct VIAMacro: Hashable, Sendable {
    /// Why macros could not be encoded or a buffer decoded.
    public enum CodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Text holds a character VIA macros cannot type.
        case unsupportedCharacter(macro: Int, character: String)
        /// A keycode of 0 would end the macro early.
        case zeroKeycode(macro: Int)
        /// A delay outside 0...99999 ms.
        case delayOutOfRange(macro: Int, milliseconds: Int)
        /// The buffer holds an action this code does not know, or one cut short.
        case malformedAction(macro: Int, offset: Int)

        public var description: String {
            switch self {
            case let .unsupportedCharacter(macro, character):
                return "macro \(macro) types \(character.debugDescription), which VIA macros cannot type; "
                    + "use ASCII text or key taps"
            case .zeroKeycode(let macro):
                return "macro \(macro) taps keycode 0, which VIA cannot store; choose a key"
            case let .delayOutOfRange(macro, milliseconds):
                return "macro \(macro) waits \(milliseconds) ms; use 0 to 99999"
            case let .malformedAction(macro, offset):
                return "macro \(macro) holds an unknown or cut-short action at buffer offset \(offset); "
                    + "it was written by another tool or a newer VIA, re-create it"
            }
        }
    }

    /// The steps, in order.
    public var actions: [VIAMacroAction]

    /// Creates a macro.
    public init(actions: [VIAMacroAction]) {
        self.actions = actions
    }

    private static let prefix: UInt8 = 0x01

    /// Encodes macros for the buffer: each followed by NUL (the buffer's zero fill follows).
    /// - Throws: CodingError for characters, keycodes or delays the encoding cannot carry.
    public static func encode(_ macros: [VIAMacro]) throws(CodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, macro) in macros.enumerated() {
            for action in macro.actions {
                switch action {
                case .text(let text):
                    for character in text {
                        guard let ascii = character.asciiValue, VIAMacroAction.isTextByte(ascii) else {
                            throw .unsupportedCharacter(macro: index, character: String(character))
                        }
                        bytes.append(ascii)
                    }
                case .tap(let keycode), .press(let keycode), .release(let keycode):
                    guard keycode != 0 else { throw .zeroKeycode(macro: index) }
                    let code: UInt8 =
                        switch action {
                        case .tap: 0x01
                        case .press: 0x02
                        default: 0x03
                        }
                    bytes += [prefix, code, keycode]
                case .delay(let milliseconds):
                    guard (0...99_999).contains(milliseconds) else {
                        throw .delayOutOfRange(macro: index, milliseconds: milliseconds)
                    }
                    bytes += [prefix, 0x04] + Array(String(milliseconds).utf8) + [UInt8(ascii: "|")]
                }
            }
            bytes.append(0)
        }
        return bytes
    }

    /// Decodes the first `count` macros of a buffer; macros the buffer does not reach are empty.
    /// - Throws: CodingError.malformedAction for an unknown or truncated action.
    public static func decode(_ buffer: [UInt8], count: Int) throws(CodingError) -> [VIAMacro] {
        var macros: [VIAMacro] = []
        var offset = 0
        while macros.count < count {
            var actions: [VIAMacroAction] = []
            var text: [UInt8] = []
            func flushText() {
                if !text.isEmpty { actions.append(.text(String(decoding: text, as: UTF8.self))) }
                text.removeAll()
            }
            let index = macros.count
            while offset < buffer.count && buffer[offset] != 0 {
                let byte = buffer[offset]
                guard byte == prefix else {
                    text.append(byte)
                    offset += 1
                    continue
                }
                flushText()
                guard offset + 2 < buffer.count, buffer[offset + 2] != 0 else {
                    throw .malformedAction(macro: index, offset: offset)
                }
                switch buffer[offset + 1] {
                case 0x01: actions.append(.tap(buffer[offset + 2]))
                case 0x02: actions.append(.press(buffer[offset + 2]))
                case 0x03: actions.append(.release(buffer[offset + 2]))
                case 0x04:
                    let digitsStart = offset + 2
                    guard let bar = buffer[digitsStart...].firstIndex(of: UInt8(ascii: "|")),
                        bar > digitsStart, bar - digitsStart <= 5,
                        let milliseconds = Int(String(decoding: buffer[digitsStart..<bar], as: UTF8.self))
                    else { throw .malformedAction(macro: index, offset: offset) }
                    actions.append(.delay(milliseconds: milliseconds))
                    offset = bar + 1
                    continue
                default:
                    throw .malformedAction(macro: index, offset: offset)
                }
                offset += 3
            }
            flushText()
            macros.append(VIAMacro(actions: actions))
            offset += 1  // The NUL (or past the end, where later macros are empty).
        }
        return macros
    }
}
