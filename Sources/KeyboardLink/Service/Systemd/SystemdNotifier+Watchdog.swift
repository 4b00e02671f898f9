extension SystemdNotifier {
    /// Sends `WATCHDOG=1` every ``watchdogPingInterval`` until the task is cancelled; returns at once when systemd
    /// set no watchdog or no socket.
    ///
    /// A ping proves the daemon works, not only that this task runs: pass an `isHealthy` check that goes through
    /// the daemon's own machinery (for example a round trip on its bus connection). When the check fails the ping
    /// is skipped, and systemd restarts the unit if it keeps failing past `WatchdogSec=`.
    /// - Parameters:
    ///   - logger: receives a warning when a ping cannot be sent.
    ///   - isHealthy: asked before each ping.
    package func keepWatchdogAlive(
        logger: Logger? = nil,
        isHealthy: @escaping @Sendable () async -> Bool = { true }
    ) async {
        guard isEnabled, let interval = watchdogPingInterval else { return }
        while !Task.isCancelled {
            if await isHealthy() {
                do {
                    try watchdog()
                } catch {
                    logger?.warning("watchdog ping failed: \(error)")
                }
            } else {
                logger?.warning("watchdog ping skipped: the health check failed")
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}
