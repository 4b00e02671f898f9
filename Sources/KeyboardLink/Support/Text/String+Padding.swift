extension String {
    /// The string with `pad` in front up to `width` characters (`"1f".leftPadded(to: 4)` is `"001f"`).
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
