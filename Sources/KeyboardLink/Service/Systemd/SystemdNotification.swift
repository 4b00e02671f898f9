import Glibc

/// One state change kblinkd reports to systemd through `$NOTIFY_SOCKET` (see `sd_notify(3)`).
package enum SystemdNotification: Sendable, Equatable {
    /// `READY=1`: start-up (or a reload) finished; for kblinkd, the name is owned and the BlueZ state loaded.
    case ready
    /// `RELOADING=1` with the `MONOTONIC_USEC=` systemd wants alongside it; send ``ready`` when the reload is done.
    case reloading(monotonicMicroseconds: UInt64)
    /// `STOPPING=1`: shutdown began.
    case stopping
    /// `STATUS=...`: a one-line status shown by `systemctl status`. Newlines become spaces.
    case status(String)
    /// `WATCHDOG=1`: the daemon is alive; due every half `WATCHDOG_USEC`.
    case watchdog
    /// `EXTEND_TIMEOUT_USEC=...`: start-up or shutdown needs this much longer than the unit's timeout.
    case extendTimeout(Duration)

    /// `RELOADING=1` stamped with the current `CLOCK_MONOTONIC` time.
    package static var reloadingNow: SystemdNotification {
        .reloading(monotonicMicroseconds: monotonicMicroseconds())
    }

    /// The `KEY=value` lines this notification adds to a datagram.
    var assignments: [String] {
        switch self {
        case .ready: ["READY=1"]
        case .reloading(let microseconds): ["RELOADING=1", "MONOTONIC_USEC=\(microseconds)"]
        case .stopping: ["STOPPING=1"]
        case .status(let text): ["STATUS=\(Self.singleLine(text))"]
        case .watchdog: ["WATCHDOG=1"]
        case .extendTimeout(let duration): ["EXTEND_TIMEOUT_USEC=\(Self.microseconds(of: duration))"]
        }
    }

    /// The datagram is a list of newline-separated assignments, so a value must not contain a newline or a NUL.
    private static func singleLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar in
                    switch scalar {
                    case "\0": nil
                    case "\n", "\r": " "
                    default: scalar
                    }
                }))
    }

    private static func microseconds(of duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        if overflow { return UInt64.max }
        return whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000_000)).partialValue
    }

    /// Reads `CLOCK_MONOTONIC` in microseconds, the clock systemd compares `MONOTONIC_USEC` against.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
