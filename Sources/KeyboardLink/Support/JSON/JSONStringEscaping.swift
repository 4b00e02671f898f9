/// How JSON strings are written, for the profile codec (`JSONNodeWriter`) and the CLI's `--json` output
/// (`JSONValue`): quotes, backslashes and control characters escaped as Foundation's `JSONEncoder` escapes them;
/// for `--json`, DEL, the C1 controls (U+0080 to U+009F), bidi controls and zero-width characters as `\uXXXX` too:
/// text a Bluetooth device chose reaches `--json` output, and a terminal showing it raw would act on it.
package enum JSONStringEscaping {
    /// Appends the characters of `text`, escaped, without the surrounding quotes.
    /// - Parameters:
    ///   - escapingSlashes: whether `/` is written `\/` (Foundation's default).
    ///   - escapingInvisibles: whether DEL, C1, bidi controls and zero-width characters are escaped too (the CLI's
    ///     `--json`; Foundation writes them as they are, and so does the profile codec).
    package static func appendEscaped(
        _ text: String, to output: inout [UInt8], escapingSlashes: Bool, escapingInvisibles: Bool = false
    ) {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard value < 0x80 else {
                if escapingInvisibles && ((0x80...0x9F).contains(value) || String.isHidden(scalar)) {
                    appendUnicodeEscape(value, to: &output)
                } else {
                    output.append(contentsOf: String(scalar).utf8)
                }
                continue
            }
            let byte = UInt8(value)
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case UInt8(ascii: "/"):
                if escapingSlashes { output.append(UInt8(ascii: "\\")) }
                output.append(byte)
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20: appendUnicodeEscape(value, to: &output)
            case 0x7F where escapingInvisibles: appendUnicodeEscape(value, to: &output)
            default: output.append(byte)
            }
        }
    }

    /// `\u` and four lowercase hex digits (the value is below U+10000).
    private static func appendUnicodeEscape(_ value: UInt32, to output: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hex[Int((value >> UInt32(shift)) & 0x0F)])
        }
    }
}
