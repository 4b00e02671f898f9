import Testing

@testable import KeyboardLinkDBus

@Suite("Call deadlines: earliest first, answered calls never pile up")
struct CallDeadlinesTests {
    let start = ContinuousClock.now

    func entry(_ milliseconds: Int, serial: UInt32) -> CallDeadlines.Entry {
        .init(deadline: start.advanced(by: .milliseconds(milliseconds)), serial: serial, id: UInt64(serial))
    }

    @Test("deadlines come out earliest first, whatever order they went in", arguments: [1, 2, 7, 64, 500])
    func order(count: Int) {
        var deadlines = CallDeadlines()
        var generator = SystemRandomNumberGenerator()
        let offsets = (0..<count).map { _ in Int.random(in: 0..<10_000, using: &generator) }
        for (index, offset) in offsets.enumerated() { deadlines.insert(entry(offset, serial: UInt32(index + 1))) }
        var popped: [ContinuousClock.Instant] = []
        while let next = deadlines.popExpired(asOf: start.advanced(by: .seconds(20))) { popped.append(next.deadline) }
        #expect(popped == offsets.sorted().map { start.advanced(by: .milliseconds($0)) })
        #expect(deadlines.count == 0)
    }

    @Test("only deadlines at or before now expire")
    func expiry() {
        var deadlines = CallDeadlines()
        deadlines.insert(entry(300, serial: 3))
        deadlines.insert(entry(100, serial: 1))
        deadlines.insert(entry(200, serial: 2))
        #expect(deadlines.popExpired(asOf: start.advanced(by: .milliseconds(99))) == nil)
        #expect(deadlines.popExpired(asOf: start.advanced(by: .milliseconds(200)))?.serial == 1)
        #expect(deadlines.popExpired(asOf: start.advanced(by: .milliseconds(200)))?.serial == 2)
        #expect(deadlines.popExpired(asOf: start.advanced(by: .milliseconds(200))) == nil)
        #expect(deadlines.earliest == start.advanced(by: .milliseconds(300)))
    }

    @Test("answered calls at the top are dropped at once")
    func staleTop() {
        var deadlines = CallDeadlines()
        var live: Set<UInt32> = []
        for serial in UInt32(1)...10 {
            deadlines.insert(entry(Int(serial), serial: serial))
            live.insert(serial)
        }
        // Answered in the order they were sent, as usual.
        for serial in UInt32(1)...4 {
            live.remove(serial)
            deadlines.dropStaleTop(liveCount: live.count) { live.contains($0.serial) }
        }
        #expect(deadlines.count == 6)
        #expect(deadlines.earliest == start.advanced(by: .milliseconds(5)))
    }

    @Test("one slow call does not let a stream of answered calls behind it pile up")
    func compaction() {
        var deadlines = CallDeadlines()
        var live: Set<UInt32> = [1]
        deadlines.insert(entry(0, serial: 1))  // The slow call: earliest, never answered here.
        var largest = 0
        for serial in UInt32(2)...100_000 {
            deadlines.insert(entry(1_000 + Int(serial), serial: serial))
            live.insert(serial)
            live.remove(serial)
            deadlines.dropStaleTop(liveCount: live.count) { live.contains($0.serial) }
            largest = max(largest, deadlines.count)
        }
        #expect(largest <= 2 * live.count + 33)
        #expect(deadlines.popExpired(asOf: start.advanced(by: .seconds(1_000)))?.serial == 1)
    }

    @Test("compaction keeps the live deadlines in order")
    func compactionKeepsOrder() {
        var deadlines = CallDeadlines()
        var live: Set<UInt32> = []
        for serial in UInt32(1)...200 {
            deadlines.insert(entry(Int((serial * 37) % 211), serial: serial))
            live.insert(serial)
        }
        // Answer every call but each fifth, out of order.
        for serial in UInt32(1)...200 where serial % 5 != 0 { live.remove(serial) }
        deadlines.dropStaleTop(liveCount: live.count) { live.contains($0.serial) }
        #expect(deadlines.count == live.count)
        var popped: [UInt32] = []
        while let next = deadlines.popExpired(asOf: start.advanced(by: .seconds(1))) { popped.append(next.serial) }
        #expect(Set(popped) == live)
        #expect(popped == live.sorted { ($0 * 37) % 211 < ($1 * 37) % 211 })
    }
}
