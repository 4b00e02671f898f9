/// A malformed block of `/proc/bus/input/devices`.
package struct InputDevicesParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    package var line: Int
    /// What is wrong.
    package var reason: String

    package var description: String { "input devices list, line \(line): \(reason)" }

    init(line: Int, reason: String) {
        self.line = line
        self.reason = String(reason.unicodeScalars.map { $0.isASCII && $0.value < 0x20 ? "?" : Character($0) })
    }
}
