extension String {
    /// The string without leading and trailing white space and line breaks (`\r\n` is one Character).
    package func trimmingWhiteSpace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
