import Glibc
import Synchronization

/// The file descriptors read out of one received message, closed together when their owner is done with them.
///
/// libdbus hands out every `h` it decodes as a `dup()` of the descriptor the message holds: the copy is ours to
/// close. A decoded ``Message`` keeps this object, so its descriptors stay valid as long as any copy of the message
/// lives and are closed with the last one; a typed method's arguments close theirs when the handler returns.
final class ReceivedDescriptors: Sendable {
    private let descriptors = Mutex<[Int32]>([])

    /// Takes ownership of `descriptor` (closed by ``closeAll()`` or when this object goes away).
    func adopt(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        descriptors.withLock { $0.append(descriptor) }
    }

    /// Whether no descriptor was adopted (or all were closed).
    var isEmpty: Bool { descriptors.withLock { $0.isEmpty } }

    /// Closes every descriptor taken so far; calling it again closes nothing twice.
    func closeAll() {
        let taken = descriptors.withLock { held -> [Int32] in
            defer { held.removeAll() }
            return held
        }
        for descriptor in taken { _ = Glibc.close(descriptor) }
    }

    deinit { closeAll() }
}
