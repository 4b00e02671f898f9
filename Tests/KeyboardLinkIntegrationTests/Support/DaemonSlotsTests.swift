import KeyboardLinkTestSupport
import Testing

/// The bound on private buses alive at once: a slot is taken before a bus starts and given back when it stops.
@Suite("DaemonSlots")
struct DaemonSlotsTests {
    @Test("a test waits while every slot is taken, and goes on when one is given back")
    func waitsForAFreeSlot() async throws {
        let slots = DaemonSlots(count: 2)
        var first: DaemonSlot? = await slots.acquire()
        let second = await slots.acquire()
        #expect(slots.free == 0)
        let third = Task { await slots.acquire() }
        // The third waits until the first is given back.
        #expect(await eventually { slots.waiting == 1 })
        first = nil
        let thirdSlot = await third.value
        #expect(slots.free == 0)
        withExtendedLifetime((first, second, thirdSlot)) {}
    }

    @Test("a slot given back with nobody waiting is free again")
    func givenBack() async {
        let slots = DaemonSlots(count: 1)
        var slot: DaemonSlot? = await slots.acquire()
        #expect(slots.free == 0)
        slot = nil
        #expect(slots.free == 1)
        withExtendedLifetime(slot) {}
    }

    @Test("when no slot changes hands for the longest wait, a waiter goes ahead without a slot and takes none")
    func goesAheadAfterTheLongestWait() async {
        let slots = DaemonSlots(count: 1)
        let held = await slots.acquire()
        var late: DaemonSlot? = await slots.acquire(waitingAtMost: .milliseconds(20))
        #expect(slots.wentAhead.count == 1)
        late = nil
        // The late one held no slot: giving it back frees none.
        #expect(slots.free == 0)
        withExtendedLifetime((held, late)) {}
    }

    @Test("stalled waiters go ahead one at a time, a longest wait apart, never all at once")
    func oneAtATime() async {
        let slots = DaemonSlots(count: 1)
        let held = await slots.acquire()
        let longestWait = Duration.milliseconds(50)
        let late = await withTaskGroup(of: DaemonSlot.self) { group in
            for _ in 0..<3 { group.addTask { await slots.acquire(waitingAtMost: longestWait) } }
            var all: [DaemonSlot] = []
            for await slot in group { all.append(slot) }
            return all
        }
        let times = slots.wentAhead
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= longestWait)
        }
        withExtendedLifetime((held, late)) {}
    }
}
