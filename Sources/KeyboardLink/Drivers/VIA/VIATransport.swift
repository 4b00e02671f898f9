/// Carries VIA reports to a keyboard and back: a hidraw node, or a socketpair in tests.
///
/// One request is in flight at a time: the client sends a report and receives its reply before the next.
package protocol VIATransport: Sendable {
    /// Sends one 32-byte report.
    /// - Throws: VIATransportError when the link is gone or the write fails.
    func send(_ report: VIAReport) async throws
    /// Receives one 32-byte report.
    /// - Throws: VIATransportError.timedOut when nothing arrives in time, .disconnected when the link closed.
    func receive() async throws -> VIAReport
}
