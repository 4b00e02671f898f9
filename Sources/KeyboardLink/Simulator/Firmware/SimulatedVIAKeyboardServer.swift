import Dispatch
import Glibc
import KeyboardLinkDrivers
import KeyboardLinkSupport
import Synchronization

/// Serves a `SimulatedVIAKeyboard` on one end of a SOCK_SEQPACKET socketpair from a private Dispatch queue:
/// it reads each 32-byte report, lets the keyboard answer, and writes the reply back.
///
/// The keyboard's state is updated before its reply is written, so once a client operation returns, `keyboard`
/// already shows its effect. A `dropConnection` fault closes the socket; the client then sees end of file.
package final class SimulatedVIAKeyboardServer: Sendable {
    private struct State {
        var keyboard: SimulatedVIAKeyboard
        var descriptorOpen = true
    }

    private let state: Mutex<State>
    private let descriptor: Int32
    private let replyDelay: Duration
    private let queue = DispatchQueue(label: "kblink.simulated-via-keyboard")
    private let running = DispatchGroup()

    /// Starts serving `keyboard` on `descriptor` (one end of a SOCK_SEQPACKET socketpair, now owned by the server).
    /// - Parameter replyDelay: how long each reply takes, to simulate a slow link (0 for none).
    package init(keyboard: SimulatedVIAKeyboard, descriptor: Int32, replyDelay: Duration = .zero) {
        state = Mutex(State(keyboard: keyboard))
        self.descriptor = descriptor
        self.replyDelay = replyDelay
        running.enter()
        queue.async { [self] in
            serve()
            running.leave()
        }
    }

    /// Creates a socketpair, serves `keyboard` on one end and returns a client transport for the other.
    /// - Throws: VIATransportError.systemCall when the socketpair cannot be created.
    package static func start(
        _ keyboard: SimulatedVIAKeyboard, replyDelay: Duration = .zero, timeoutMilliseconds: Int = 2_000
    ) throws -> (server: SimulatedVIAKeyboardServer, transport: VIASocketTransport) {
        let (transport, peer) = try VIASocketTransport.makePair(timeoutMilliseconds: timeoutMilliseconds)
        return (SimulatedVIAKeyboardServer(keyboard: keyboard, descriptor: peer, replyDelay: replyDelay), transport)
    }

    /// A snapshot of the keyboard's state.
    package var keyboard: SimulatedVIAKeyboard {
        state.withLock { $0.keyboard }
    }

    /// Stops serving: the client reads end of file. Returns at once; `waitUntilStopped()` waits for the loop.
    package func stop() {
        state.withLock { state in
            // Under the lock the loop cannot close the descriptor, so this never touches a reused number.
            if state.descriptorOpen { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Blocks until the serving loop has ended and closed its socket.
    package func waitUntilStopped() {
        running.wait()
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: VIAReport.length + 1)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { break }  // End of file (client closed or stop()) or an error.
            // A report of the wrong size is not one QMK would see (the kernel enforces the report size): skip it.
            guard let report = try? VIAReport(validating: buffer[..<count]) else { continue }
            let (reply, connected) = state.withLock { state in
                let reply = state.keyboard.handle(report)
                return (reply, state.keyboard.isConnected)
            }
            if replyDelay > .zero {
                let (seconds, attoseconds) = replyDelay.components
                var delay = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                var remaining = timespec()
                while nanosleep(&delay, &remaining) == -1 && errno == EINTR {
                    delay = remaining
                }
            }
            if let reply {
                do {
                    try VIAPosix.writeRecord(descriptor, reply.bytes, isSocket: true, path: "socketpair")
                } catch {
                    break
                }
            }
            if !connected { break }
        }
        state.withLock { state in
            state.descriptorOpen = false
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
            _ = Glibc.close(descriptor)
        }
    }
}
