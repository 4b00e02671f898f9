/// Where the ``Authorizer`` reports: decisions, the audit lines and polkit's absence. The daemon forwards these to its
/// journal logger at the same levels.
public struct AuthorizationLog: Sendable {
    /// How important a report is (the journal levels the daemon maps them to).
    public enum Level: Sendable, Equatable {
        /// An allowed read, a cached answer.
        case debug
        /// An audit line or a refusal.
        case notice
        /// polkit absent, failing or slow.
        case warning
    }

    let write: @Sendable (Level, String) -> Void

    /// Creates a log from a function that receives each report.
    public init(_ write: @escaping @Sendable (Level, String) -> Void) {
        self.write = write
    }

    /// Reports nothing.
    public static var silent: AuthorizationLog { AuthorizationLog { _, _ in } }
}
