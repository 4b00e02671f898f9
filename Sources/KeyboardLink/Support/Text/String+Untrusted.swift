/// Text that a Bluetooth device chose (a name, an alias, a firmware string), made safe to show on one line of a
/// terminal or to write into one log line.
///
/// Every device in radio range chooses its own name. Shown raw, a name could carry escape sequences (colours, a
/// new terminal title, cursor moves), a newline that fakes a row or a log entry, or bidi controls and zero-width
/// characters that make text read differently from what it is.
extension String {
    /// The text for one line of a terminal: C0 controls (newline and tab too), ESC, DEL and C1 as caret or
    /// `\u{...}` escapes (`^[`, `^J`, `^?`, `\u{9B}`), bidi controls and zero-width characters as `\u{...}`.
    package var escapedForTerminalLine: String {
        guard unicodeScalars.contains(where: { Self.isHidden($0) || Self.isControl($0) }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: result += "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F: result += "^?"
            case _ where Self.isControl(scalar) || Self.isHidden(scalar): result += Self.braced(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text for one log line: C0 controls (newline too), DEL and C1 as `\n`, `\r`, `\t` or `\xNN`, bidi
    /// controls and zero-width characters as `\u{...}`, so that one event stays one journal entry and no device
    /// text can start a line of its own.
    package var escapedForLog: String {
        guard unicodeScalars.contains(where: { Self.isHidden($0) || Self.isControl($0) }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where Self.isHidden(scalar): result += Self.braced(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0, DEL and C1.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// Bidi controls (ALM, LRM, RLM, the embeddings, overrides and isolates) and zero-width characters (ZWSP, ZWNJ,
    /// ZWJ, word joiner, BOM): they change how the text around them reads while showing nothing themselves.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// `\u{202E}`.
    private static func braced(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
