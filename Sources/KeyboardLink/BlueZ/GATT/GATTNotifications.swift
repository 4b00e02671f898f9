/// The values of one characteristic as BlueZ notifies them: an `AsyncSequence` of byte arrays, one per
/// notification or indication, in arrival order (none is dropped).
///
/// Made by ``GATTClient/notifications(from:)``. It ends when the characteristic's object goes away (the device
/// disconnected), or after ``stop()``. `StopNotify` is sent once iteration ends for any reason or the sequence
/// is released.
public struct GATTNotifications: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    /// The characteristic notifying.
    public let characteristic: GATTCharacteristic
    private let stream: AsyncStream<[UInt8]>
    private let continuation: AsyncStream<[UInt8]>.Continuation

    init(
        characteristic: GATTCharacteristic, changes: SignalStream, removals: SignalStream,
        stopNotify: @escaping @Sendable () async -> Void
    ) {
        self.characteristic = characteristic
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        self.stream = stream
        self.continuation = continuation
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
            Task { await stopNotify() }
        }
    }

    /// Ends the sequence (iteration finishes after the values already received) and sends `StopNotify`.
    public func stop() {
        continuation.finish()
    }

    public func makeAsyncIterator() -> AsyncStream<[UInt8]>.AsyncIterator {
        stream.makeAsyncIterator()
    }
}
