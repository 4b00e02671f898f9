/// How the layout core's errors quote a field id: as `String.errorExcerpt` in KeyboardLinkSupport does (the layout
/// core depends on nothing), at most 120 scalars, control characters written as `\u{1b}`, and `…` when some were cut.
extension FieldID {
    /// The id as an error message quotes it.
    var errorExcerpt: String {
        var out = ""
        var count = 0
        for scalar in rawValue.unicodeScalars {
            if count == 120 {
                out += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }
}
