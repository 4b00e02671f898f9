import KeyboardLink
import KeyboardLinkTestSupport
import Testing

@Suite("Many calls at once, timeouts and cancellation")
struct ConcurrencyTests {
    @Test("10,000 concurrent calls from one connection all complete, with no pending call left")
    func tenThousandCalls() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let count = 10_000
            let results = try await concurrentAdds(proxy, count: count, adding: 1)
            #expect(results.count == count)
            #expect(results.allSatisfy { $0.value == $0.key + 1 })
            #expect(await client.pendingCallCount == 0)
        }
    }

    @Test("cancelling the calling task cancels its pending call")
    func cancellation() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let slow = Task { try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .seconds(120)) }
            #expect(await eventually { await client.pendingCallCount == 1 })
            slow.cancel()
            await #expect(throws: CancellationError.self) { try await slow.value }
            #expect(await client.pendingCallCount == 0)
            // The connection is still fine.
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }

    @Test("a task cancelled before its call is sent throws CancellationError and sends nothing")
    func cancelledBeforeSending() async throws {
        try await withBus { _, server, client in
            let counter = SynchronousHandlerTests.Counter()
            try await server.export(counter.declaration(), at: SynchronousHandlerTests.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: SynchronousHandlerTests.path,
                interface: SynchronousHandlerTests.interface)
            for _ in 0..<20 {
                let call = Task {
                    // Cancelled first: the cancellation reaches the connection before the job that would send.
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await proxy.call(MemberName("Bump"))
                }
                await #expect(throws: CancellationError.self) { try await call.value }
            }
            #expect(await client.pendingCallCount == 0)
            // Nothing went out: the next call is the first the server sees.
            #expect(
                try await proxy.call(MemberName("Add"), [.int32(2), .int32(3)], returning: Int32.self) == 5)
            #expect(counter.count == 1)
        }
    }

    @Test("a call that gets no reply in time fails with NoReply")
    func timeout() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            await expectDBusError(.noReply) {
                try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .milliseconds(100))
            }
            #expect(await client.pendingCallCount == 0)
        }
    }

    @Test("a reply that comes after its call timed out is dropped, and the next calls are answered")
    func lateReply() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            await #expect(throws: DBusError.self) {
                try await proxy.call(MemberName("Slow"), [.uint32(300)], timeout: .milliseconds(50))
            }
            // The late reply arrives while these calls are in flight (they go on until well after it is due, however
            // slow the machine): each must get its own answer.
            let clock = ContinuousClock()
            let lateReplyDue = clock.now.advanced(by: .milliseconds(600))
            var index: Int32 = 0
            while index < 50 || clock.now < lateReplyDue {
                #expect(
                    try await proxy.call(MemberName("Add"), [.int32(index), .int32(1)], returning: Int32.self)
                        == index + 1)
                index += 1
            }
            #expect(await client.pendingCallCount == 0)
        }
    }

    @Test(
        "a timeout ages away (a way of saying wait for ever) is accepted, and so is one already past",
        arguments: [Duration.seconds(Int64.max / 2), .seconds(Int64.max), .seconds(10_000_000_000_000_000)])
    func farTimeout(_ timeout: Duration) async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let sum = try await proxy.call(
                MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self,
                timeout: timeout)
            #expect(sum == 3)
            // The loop now sleeps with that deadline pending; a later call must still be answered.
            #expect(try await proxy.call(MemberName("Add"), [.int32(2), .int32(2)], returning: Int32.self) == 4)
            await expectDBusError(.noReply) {
                try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .seconds(-1))
            }
        }
    }

    // The limit catches a hang; the wait for a private bus (`DaemonSlots`) counts toward it, over a minute under load.
    @Test(
        "calls with different timeouts each time out on their own deadline",
        .timeLimit(.minutes(5)))
    func mixedTimeouts() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            // The long timeout goes first, on a call the server answers only after 50 s. The short one must fail on
            // its own 100 ms deadline: waiting for the long one's hour would run into the suite's time limit.
            let long = Task {
                try await proxy.call(MemberName("Slow"), [.uint32(50_000)], timeout: .seconds(3_600))
            }
            #expect(await eventually { await client.pendingCallCount == 1 })
            await expectDBusError(.noReply) {
                try await proxy.call(MemberName("Slow"), [.uint32(50_000)], timeout: .milliseconds(100))
            }
            #expect(await client.pendingCallCount == 1, "the long call still waits")
            long.cancel()
            await #expect(throws: CancellationError.self) { try await long.value }
            #expect(await client.pendingCallCount == 0)
        }
    }

    @Test("the bus going away fails pending calls with Disconnected")
    func busGone() async throws {
        try await withBus { bus, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            // Answered only after a minute, and waited for two: the one way it can end in time is the bus going away
            // (with a 2 s answer, a loaded machine sometimes saw the answer before the disconnection).
            let pending = Task {
                try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .seconds(120))
            }
            #expect(await eventually { await client.pendingCallCount == 1 })
            bus.daemon.stop()
            await expectDBusError(.disconnected) { _ = try await pending.value }
            #expect(await client.pendingCallCount == 0)
        }
    }

    @Test("closing the connection fails pending calls and ends signal streams")
    func closeFailsPending() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let stream = try await client.subscribe(to: MatchRule(interface: EchoService.interface))
            let pending = Task { try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .seconds(120)) }
            #expect(await eventually { await client.pendingCallCount == 1 })
            await client.close()
            await #expect(throws: DBusError.self) { try await pending.value }
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == nil)
            await #expect(throws: DBusError.self) {
                try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)])
            }
        }
    }

    @Test("a peer that leaves the bus makes calls to it fail, not hang")
    func peerGone() async throws {
        try await withBus { bus, _, client in
            let leaving = try await bus.connect()
            let proxy = try await EchoService.export(on: leaving, proxyFrom: client)
            let pending = Task { try await proxy.call(MemberName("Slow"), [.uint32(60_000)], timeout: .seconds(120)) }
            #expect(await eventually { await client.pendingCallCount == 1 })
            await leaving.close()
            await #expect(throws: DBusError.self) { try await pending.value }
        }
    }
}
