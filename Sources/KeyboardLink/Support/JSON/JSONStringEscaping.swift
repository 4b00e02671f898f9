/// How JSON strings are written, for the profile codec (`JSONNodeWriter`) and the CLI's `--json` output
/// (`JSONValue`): quotes, backslashes and control characters escaped as Foundation's `JSONEncoder` escapes them.
package enum JSONStringEscaping {
    /// Appends the characters of `text`, escaped, without the surrounding quotes.
    /// - Parameter escapingSlashes: whether `/` is written `\/` (Foundation's default).
    package static func appendEscaped(_ text: String, to output: inout [UInt8], escapingSlashes: Bool) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
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
            case 0..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
    }
}
