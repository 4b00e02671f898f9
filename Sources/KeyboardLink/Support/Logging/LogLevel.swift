/// How important a log line is. The raw value is the syslog priority that journald reads from a `<N>` prefix.
package enum LogLevel: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Something failed and the daemon could not do what was asked (`<3>`).
    case error = 3
    /// Something is wrong but the daemon carries on (`<4>`).
    case warning = 4
    /// A normal but significant event, such as a keyboard attaching (`<5>`).
    case notice = 5
    /// Routine progress (`<6>`), the default threshold.
    case info = 6
    /// Detail for people chasing a bug (`<7>`).
    case debug = 7

    /// The name used in the configuration file and on the command line (`error`, `warning`, ...).
    package var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// The journald priority prefix, such as `<6>`.
    package var journalPrefix: String { "<\(rawValue)>" }

    /// Parses a level name; case does not matter (`Info` and `info` are the same).
    ///
    /// Returns nil for anything else; callers list ``LogLevel/allNames`` in their error.
    package init?(name: String) {
        let lowered = name.lowercased()
        guard let level = Self.allCases.first(where: { $0.name == lowered }) else { return nil }
        self = level
    }

    /// Every level name, most severe first, for error messages and help text.
    package static var allNames: [String] { allCases.map(\.name) }

    /// Whether a line of this level is written when the logger's threshold is `threshold`.
    package func passes(threshold: LogLevel) -> Bool { rawValue <= threshold.rawValue }

    package var description: String { name }
}
