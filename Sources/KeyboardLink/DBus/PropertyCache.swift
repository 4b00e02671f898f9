import Synchronization

/// A live copy of one remote interface's properties.
///
/// Follows zbus's rule: subscribe to `PropertiesChanged` first, then `GetAll`; changes emitted before the
/// `GetAll` reply (lower sender serial) are already in it and are dropped; later ones are applied in order.
public final class PropertyCache: Sendable {
    /// A change as it was applied.
    public struct Change: Sendable {
        public var changed: [String: DBusValue]
        public var invalidated: [String]
    }

    public let proxy: DBusProxy
    private let state = Mutex<[String: DBusValue]>([:])
    private let changeStream: AsyncStream<Change>
    private let changeContinuation: AsyncStream<Change>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init(proxy: DBusProxy) {
        self.proxy = proxy
        (changeStream, changeContinuation) = AsyncStream<Change>.makeStream()
    }

    /// Builds the cache: subscribes, then reads every property.
    /// - Throws: ``DBusError`` when the object or interface is unknown.
    public static func make(for proxy: DBusProxy) async throws -> PropertyCache {
        let (cache, signals) = try await subscribed(proxy)
        return try await cache.start(following: signals)
    }

    #if DEBUG
        /// `afterSubscribing` runs between the subscription and `GetAll`: tests use it to create the race this type
        /// exists to handle (debug builds only).
        static func make(
            for proxy: DBusProxy, afterSubscribing: @Sendable () async throws -> Void
        ) async throws -> PropertyCache {
            let (cache, signals) = try await subscribed(proxy)
            try await afterSubscribing()
            return try await cache.start(following: signals)
        }
    #endif

    /// A new cache for `proxy`, subscribed to its `PropertiesChanged` and not yet filled.
    private static func subscribed(_ proxy: DBusProxy) async throws -> (PropertyCache, SignalStream) {
        let signals = try await proxy.connection.subscribe(
            to: MatchRule(
                sender: proxy.destination, path: proxy.path, interface: .properties, member: "PropertiesChanged",
                arg0: proxy.interface.rawValue))
        return (PropertyCache(proxy: proxy), signals)
    }

    /// Reads every property, then applies the changes `signals` brings that are later than that read.
    private func start(following signals: SignalStream) async throws -> PropertyCache {
        let (values, serial) = try await proxy.allProperties()
        state.withLock { $0 = values }
        let running = Task { [weak self] in
            for await message in signals {
                guard let self else { return }
                // Sent before the GetAll reply: its effect is already in `values`.
                guard message.serial > serial else { continue }
                self.apply(message)
            }
            self?.changeContinuation.finish()
        }
        task.withLock { $0 = running }
        return self
    }

    deinit {
        task.withLock { $0?.cancel() }
        changeContinuation.finish()
    }

    /// Stops following changes.
    public func stop() {
        task.withLock { $0?.cancel() }
    }

    private func apply(_ message: Message) {
        guard message.body.count == 3, let changed = message.body[1].stringDictionary,
            let invalidated = message.body[2].arrayValue?.compactMap(\.stringValue)
        else { return }
        let unwrapped = changed.mapValues(\.unwrapped)
        state.withLock { values in
            for (name, value) in unwrapped { values[name] = value }
            for name in invalidated { values[name] = nil }
        }
        changeContinuation.yield(Change(changed: unwrapped, invalidated: invalidated))
    }

    /// The cached value of a property; nil when unknown or invalidated.
    public subscript(name: String) -> DBusValue? {
        state.withLock { $0[name] }
    }

    /// Every cached property.
    public var values: [String: DBusValue] {
        state.withLock { $0 }
    }

    /// Changes as they are applied.
    public var changes: AsyncStream<Change> { changeStream }
}
