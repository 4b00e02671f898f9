/// Text from outside shown on a terminal without letting it drive the terminal.
///
/// A keyboard's name comes over the air from any device in radio range, and daemon messages quote such names and
/// the user's arguments. Written raw, an escape sequence in them could retitle the terminal, move the cursor, clear
/// lines or fake output. These functions show every control character as a visible escape instead: `^[` for ESC,
/// `^G` for BEL, `^M` for a carriage return, `^?` for DEL (caret notation, as `cat -v` prints them), and `\u{9B}`
/// for the C1 controls U+0080 to U+009F, bidi controls and zero-width characters (`String.isHidden`).
extension String {
    /// The text with every control character escaped; newlines and tabs are kept.
    package var escapingTerminalControls: String {
        escapingTerminalControls(keepingStyles: false)
    }

    /// The text with every control character escaped except newlines, tabs and, with `keepingStyles`, the colour and
    /// weight sequences (SGR: ESC `[`, digits and semicolons, `m`), which change how text looks but cannot move the
    /// cursor or change anything but colours.
    package func escapingTerminalControls(keepingStyles: Bool) -> String {
        // Nothing to do for the usual text: no scalar below U+0020 other than newline and tab, no DEL, no C1.
        guard unicodeScalars.contains(where: Self.needsEscaping) else { return self }
        var result = String.UnicodeScalarView()
        let scalars = Array(unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if keepingStyles, scalar == "\u{1B}", let end = Self.styleSequenceEnd(in: scalars, from: index) {
                result.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            if Self.needsEscaping(scalar) {
                result.append(contentsOf: Self.visibleEscape(for: scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: isHidden(scalar)
        }
    }

    private static func visibleEscape(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00...0x1F: "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
        case 0x7F: "^?"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// The index of the `m` that ends an SGR sequence starting with the ESC at `start`; nil when it is not one.
    private static func styleSequenceEnd(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        guard index < scalars.count, scalars[index] == "[" else { return nil }
        index += 1
        // A few parameters at most: ours are like 1, 32 or 38;5;208.
        let limit = Swift.min(scalars.count, index + 16)
        while index < limit {
            let scalar = scalars[index]
            if scalar == "m" { return index }
            guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
            index += 1
        }
        return nil
    }
}
