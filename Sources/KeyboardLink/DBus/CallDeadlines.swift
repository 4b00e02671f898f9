/// When each method call still waiting for its reply gives up: a binary min-heap of deadlines, earliest first.
///
/// A call that is answered is not looked for in the heap (that would cost a search per reply): its entry stays
/// until it comes to the top or the heap is compacted, and the owner tells live entries from stale ones with
/// `isLive`. Replies usually come in the order the calls went out, and calls share one timeout, so the answered
/// call is usually at the top and ``dropStaleTop(isLive:)`` takes it off at once.
struct CallDeadlines {
    /// One call's deadline; `serial` and `id` name the call (the id guards against a serial used again).
    struct Entry: Equatable {
        var deadline: ContinuousClock.Instant
        var serial: UInt32
        var id: UInt64
    }

    private(set) var entries: [Entry] = []

    /// The number of entries, live and stale.
    var count: Int { entries.count }

    /// The earliest deadline, live or stale.
    var earliest: ContinuousClock.Instant? { entries.first?.deadline }

    /// Adds a call's deadline.
    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    /// Removes and returns the earliest entry when its deadline is at or before `now`.
    mutating func popExpired(asOf now: ContinuousClock.Instant) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        removeTop()
        return first
    }

    /// Takes stale entries off the top, and rebuilds the heap from its live entries once stale ones are the
    /// majority, so that answered calls never pile up.
    mutating func dropStaleTop(liveCount: Int, isLive: (Entry) -> Bool) {
        while let first = entries.first, !isLive(first) { removeTop() }
        if entries.count > 2 * liveCount + 32 {
            entries.removeAll { !isLive($0) }
            var index = entries.count / 2
            while index > 0 {
                index -= 1
                siftDown(index)
            }
        }
    }

    /// Forgets every entry.
    mutating func removeAll() { entries.removeAll() }

    private mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count && entries[left + 1].deadline < entries[left].deadline { smallest = left + 1 }
            guard entries[smallest].deadline < entries[parent].deadline else { return }
            entries.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
