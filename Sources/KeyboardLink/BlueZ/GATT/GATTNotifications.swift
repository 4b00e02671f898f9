import KeyboardLinkDBus

/// The values of one characteristic as BlueZ notifies them: an `AsyncSequence` of byte arrays, one per
/// notification or indication, in arrival order (none is dropped).
///
/// Made by ``GATTClient/notifications(from:)``. It ends when the characteristic's object goes away (the device
/// disconnected), or after ``stop()``. `StopNotify` is sent once iteration ends for any reason or the sequence
/// is released.
///
/// bluetoothd keeps one notification session per characteristic and D-Bus client: a second `StartNotify` from the
/// same connection joins the session, and one `StopNotify` ends it for both. So whoever starts notifications again
/// on the same connection must first `await stop()`: it returns once BlueZ has ended the old session, which a late
/// `StopNotify` would otherwise end under the new user.
package struct GATTNotifications: AsyncSequence, Sendable {
    package typealias Element = [UInt8]

    /// The characteristic notifying.
    package let characteristic: GATTCharacteristic
    private let stream: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let session: SessionEnd

    init(
        characteristic: GATTCharacteristic, changes: SignalStream, removals: SignalStream,
        stopNotify: @escaping @Sendable () async -> Void
    ) {
        self.characteristic = characteristic
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        self.stream = stream
        self.continuation = continuation
        let session = SessionEnd(stopNotify: stopNotify)
        self.session = session
        let path = characteristic.path
        let pump = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in changes {
                        guard message.body.count == 3, let changed = message.body[1].stringDictionary,
                            let value = changed["Value"]?.byteArrayValue
                        else { continue }
                        continuation.yield(value)
                    }
                }
                group.addTask {
                    for await message in removals {
                        guard case .objectPath(let removed)? = message.body.first else { continue }
                        // The characteristic itself, or the service or device above it.
                        if path.isDescendant(of: removed) { return }
                    }
                }
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            pump.cancel()
            Task { await session.end() }
        }
    }

    /// Ends the sequence (iteration finishes after the values already received) and returns once BlueZ answered
    /// `StopNotify` (the session is over: a new `StartNotify` from this connection starts a fresh one).
    package func stop() async {
        continuation.finish()
        await session.end()
    }

    package func makeAsyncIterator() -> AsyncStream<[UInt8]>.AsyncIterator {
        stream.makeAsyncIterator()
    }
}

extension GATTNotifications {
    /// Ends the notification session once, whoever asks first (``GATTNotifications/stop()`` or the end of
    /// iteration): the first caller sends `StopNotify`, later ones wait for the same answer.
    actor SessionEnd {
        private let stopNotify: @Sendable () async -> Void
        private var ending: Task<Void, Never>?

        init(stopNotify: @escaping @Sendable () async -> Void) {
            self.stopNotify = stopNotify
        }

        /// Sends `StopNotify` (the first time) and waits for its answer.
        func end() async {
            let task = ending ?? Task { [stopNotify] in await stopNotify() }
            ending = task
            await task.value
        }
    }
}
