/// Why a pairing was stopped from outside its own flow.
package enum PairingEndReason: Sendable, Equatable {
    /// `CancelPairing` (Ctrl-C in `kblink pair`, or `--timeout`).
    case canceledByUser
    /// The program that called `Pair` left the bus.
    case callerLeft
    /// BlueZ left the bus (stopped or crashed).
    case blueZStopped
    /// kblinkd is shutting down.
    case daemonStopping
}
