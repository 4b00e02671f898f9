/// Why a text is not JSON, and where: `unexpected 'o' at line 1, column 3`.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    var reason: String
    /// 1-based line of the offending byte.
    var line: Int
    /// 1-based column (in bytes) of the offending byte.
    var column: Int

    package var description: String { "\(reason) at line \(line), column \(column)" }
}
