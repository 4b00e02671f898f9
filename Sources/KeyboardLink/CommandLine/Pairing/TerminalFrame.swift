/// Redraws a block of lines in place on a terminal: each new frame moves the cursor back to the first line of
/// the previous one and clears to the end of the screen before writing.
package struct TerminalFrame: Sendable, Equatable {
    /// How many lines the last frame wrote.
    package private(set) var lineCount = 0

    /// A frame with nothing drawn yet.
    package init() {}

    /// The text that replaces the previous frame with `lines` (each ended by a newline).
    package mutating func render(_ lines: [String]) -> String {
        var text = lineCount > 0 ? "\u{1B}[\(lineCount)F\u{1B}[J" : ""
        for line in lines { text += line + "\n" }
        lineCount = lines.count
        return text
    }

    /// Counts lines written under the frame by something else (a question and the answer typed), so that the next
    /// render replaces them too.
    package mutating func include(linesWrittenBelow count: Int) {
        lineCount += count
    }
}
