import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDBus

@Suite("Property cache: subscribe before GetAll")
struct PropertyCacheTests {
    static let volume = MemberName("Volume")

    @Test("changes between subscription and GetAll are neither lost nor replayed over the reply")
    func changeBetweenSubscriptionAndGetAll() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let cache = try await PropertyCache.make(for: proxy) {
                // Real change 5 -> 6 (PropertiesChanged, then GetAll shows 6) ...
                try await server.setProperty(
                    Self.volume, of: EchoService.interface, at: EchoService.path, to: .uint32(6))
                // ... and a stale announcement of an older value, also sent before the GetAll reply. Applying
                // buffered signals after the reply would leave the cache at 1.
                try await server.emitSignal(
                    MemberName("PropertiesChanged"), of: .properties, at: EchoService.path,
                    [
                        .string(EchoService.interface.rawValue),
                        .dictionary(
                            key: .string, value: .variant,
                            [DBusDictionaryEntry(key: .string("Volume"), value: .variant(.uint32(1)))]),
                        .array(.string, []),
                    ])
            }
            #expect(cache["Volume"] == .uint32(6))
            var changes = cache.changes.makeAsyncIterator()
            try await server.setProperty(Self.volume, of: EchoService.interface, at: EchoService.path, to: .uint32(7))
            let change = await changes.next()
            // The first change applied is the one after the reply: the buffered two were dropped.
            #expect(change?.changed["Volume"] == .uint32(7))
            #expect(cache["Volume"] == .uint32(7))
            try await proxy.setProperty(Self.volume, to: .uint32(42))
            _ = await changes.next()
            #expect(cache["Volume"] == .uint32(42))
        }
    }

    @Test("invalidated properties leave the cache")
    func invalidation() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let cache = try await PropertyCache.make(for: proxy)
            #expect(cache["Secret"] == .string("a"))
            try await server.setProperty(
                MemberName("Secret"), of: EchoService.interface, at: EchoService.path, to: .string("b"))
            #expect(await eventually { cache["Secret"] == nil })
        }
    }
}
