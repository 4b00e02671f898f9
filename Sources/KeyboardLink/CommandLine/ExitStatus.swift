/// The CLI's documented exit codes.
package enum ExitStatus: Int32, Sendable {
    /// It worked.
    case success = 0
    /// It did not work (the daemon or BlueZ said no).
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// kblinkd (or the bus) cannot be reached.
    case daemonUnreachable = 3
    /// The keyboard (or object) does not exist.
    case notFound = 4
}
