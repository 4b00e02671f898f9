/// Where the ``Authorizer`` reports: decisions, the audit lines and polkit's absence. The daemon forwards these to its
/// journal logger at the same levels.
package struct AuthorizationLog: Sendable {
    /// How important a report is (the journal levels the daemon maps them to).
    package enum Level: Sendable, Equatable {
        /// An allowed read, a cached answer.
        case debug
        /// An audit line or a refusal.
        case notice
        /// polkit absent, failing or slow.
        case warning
    }

    let write: @Sendable (Level, String) -> Void
    let recordAudit: @Sendable (AuditRecord) -> Void

    /// Creates a log from a function that receives each report; audit records arrive as their text at level notice,
    /// unless `audit` takes them (the daemon's journal writer, which keeps their fields).
    package init(
        _ write: @escaping @Sendable (Level, String) -> Void, audit: (@Sendable (AuditRecord) -> Void)? = nil
    ) {
        self.write = write
        self.recordAudit = audit ?? { record in write(.notice, record.line) }
    }

    /// Writes one audit record.
    func audit(_ record: AuditRecord) { recordAudit(record) }

    /// Reports nothing.
    package static var silent: AuthorizationLog { AuthorizationLog { _, _ in } }
}
