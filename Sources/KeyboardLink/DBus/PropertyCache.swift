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
        try await make(for: proxy, afterSubscribing: nil)
    }

    /// `afterSubscribing` runs between the subscription and `GetAll`: tests use it to create the race
    /// this type exists to handle.
    static func make(
        for proxy: DBusProxy, afterSubscribing: (@Sendable () async throws -> Void)?
    ) async throws -> PropertyCache {
        let cache = PropertyCache(proxy: proxy)
        let signals = try await proxy.connection.subscribe(
            to: MatchRule(
                sender: proxy.destination, path: proxy.path, interface: .properties,
                member: MemberName(trusted: "PropertiesChanged"), arg0: proxy.interface.rawValue))
        try await afterSubscribing?()
        let (values, serial) = try await proxy.allProperties()
        cache.state.withLock { $0 = values }
        let running = Task { [weak cache] in
            for await message in signals {
                guard let cache else { return }
                // Sent before the GetAll reply: its effect is already in `values`.
                guard message.serial > serial else { continue }
                cache.apply(message)
            }
            cache?.changeContinuation.finish()
        }
        cache.task.withLock { $0 = running }
        return cache
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
