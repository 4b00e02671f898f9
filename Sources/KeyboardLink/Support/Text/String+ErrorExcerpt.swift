/// How error messages quote what they were given: never more than a bounded excerpt, so that a 1 MiB argument does
/// not come back whole in the error (and into logs), and never a control character that could break a log line or
/// drive a terminal.
extension String {
    /// The most characters (Unicode scalars) an error message quotes of its input.
    package static let errorExcerptLimit = 120

    /// At most `limit` scalars of the text, control characters written as `\u{1b}`, and `…` when some were cut.
    package func errorExcerpt(limit: Int = String.errorExcerptLimit) -> String {
        var out = ""
        var count = 0
        for scalar in unicodeScalars {
            if count == limit {
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
