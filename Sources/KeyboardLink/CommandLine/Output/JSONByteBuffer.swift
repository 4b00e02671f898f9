/// Where JSON text is appended: the encoder's own ``JSONByteBuffer``, or an array of bytes.
protocol JSONByteSink: ~Copyable {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension JSONByteSink where Self: ~Copyable {
    /// Appends the bytes of an ASCII literal (`null`, `true`, ...).
    @inline(__always)
    mutating func appendLiteral(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `bytes`.
    mutating func appendBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendBytes($0) }
    }
}

extension Array: JSONByteSink where Element == UInt8 {
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// The text one ``JSONTextWriter`` writes: a growable buffer that it alone owns, so an append is a capacity check
/// and a copy. (An array's append also checks, each time, that its storage is not shared: a tenth of the
/// encoder's instructions for `kblink list --json`, docs/performance.md.)
struct JSONByteBuffer: ~Copyable, JSONByteSink {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4_096) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (start + count).initialize(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Forgets what was written; the storage is kept.
    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }
}
