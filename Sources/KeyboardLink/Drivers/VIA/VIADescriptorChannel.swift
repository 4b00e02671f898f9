import Dispatch
import Glibc
import Synchronization

/// A file descriptor whose blocking reads and writes run on a private serial queue, so waiting for a keyboard
/// never ties up one of Swift's cooperative threads. Closing is queued behind pending I/O, so a descriptor
/// number is never reused while an operation still holds it.
final class VIADescriptorChannel: Sendable {
    /// The descriptor (owned: closed by `close()` or deinit).
    let descriptor: Int32
    /// A name for error messages (`/dev/hidraw3`, `socketpair`).
    let path: String
    /// Whether the descriptor is a socket (sends use MSG_NOSIGNAL, close shuts it down first).
    let isSocket: Bool
    /// How long a read waits.
    let timeoutMilliseconds: Int

    private let queue: DispatchQueue
    private let isClosed = Mutex(false)

    init(descriptor: Int32, path: String, isSocket: Bool, timeoutMilliseconds: Int) {
        self.descriptor = descriptor
        self.path = path
        self.isSocket = isSocket
        self.timeoutMilliseconds = timeoutMilliseconds
        queue = DispatchQueue(label: "kblink.via.\(path)")
    }

    deinit {
        // Every queued operation holds a strong reference, so none can be pending here.
        if !isClosed.withLock({ $0 }) { _ = Glibc.close(descriptor) }
    }

    /// Writes one record.
    func write(_ bytes: [UInt8]) async throws {
        try await perform { channel throws(VIATransportError) in
            try VIAPosix.writeRecord(channel.descriptor, bytes, isSocket: channel.isSocket, path: channel.path)
        }
    }

    /// Reads one record of at most `maximumLength` bytes, waiting up to `timeoutMilliseconds`.
    func read(maximumLength: Int) async throws -> [UInt8] {
        try await perform { channel throws(VIATransportError) in
            try VIAPosix.readRecord(
                channel.descriptor, maximumLength: maximumLength, timeoutMilliseconds: channel.timeoutMilliseconds,
                path: channel.path)
        }
    }

    /// Closes the descriptor after pending operations; later operations throw `VIATransportError.closed`.
    func close() {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        // Wakes a read blocked in poll on a socket; the descriptor itself stays valid until the queued close.
        if isSocket { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        queue.async { _ = Glibc.close(self.descriptor) }
    }

    private func perform<T: Sendable>(
        _ operation: @escaping @Sendable (VIADescriptorChannel) throws(VIATransportError) -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                guard !self.isClosed.withLock({ $0 }) else {
                    continuation.resume(throwing: VIATransportError.closed)
                    return
                }
                do {
                    continuation.resume(returning: try operation(self))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
