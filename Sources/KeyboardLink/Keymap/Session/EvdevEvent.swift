/// One Linux input event as `struct input_event` lays it out on 64-bit machines: `struct timeval` (seconds and
/// microseconds, 8 bytes each), type (u16), code (u16), value (s32); 24 bytes, little-endian.
package struct EvdevEvent: Hashable, Sendable {
    /// Seconds of the timestamp.
    package var seconds: Int64
    /// Microseconds of the timestamp (0-999999).
    package var microseconds: Int64
    /// Event type (`EV_SYN` 0, `EV_KEY` 1, `EV_MSC` 4, ...).
    package var type: UInt16
    /// Event code (for `EV_KEY`, the key: `KEY_A` is 30).
    package var code: UInt16
    /// Event value (for `EV_KEY`: 1 down, 0 up, 2 autorepeat).
    package var value: Int32

    /// The size of one record.
    package static let size = 24
    /// `EV_SYN`.
    package static let synchronization: UInt16 = 0
    /// `EV_KEY`.
    package static let key: UInt16 = 1
    /// The most events one decode accepts (a recording of hours of typing).
    package static let maximumCount = 1_000_000

    /// Creates an event.
    package init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// The timestamp in microseconds.
    package var time: Int64 { seconds &* 1_000_000 &+ microseconds }

    /// Reads a sequence of records, such as the bytes read from `/dev/input/eventN` or a recorded event file.
    /// - Throws: `KeymapError.invalidInputEvents` when the length is not a multiple of 24, a timestamp is
    ///   invalid, or there are too many events.
    package static func decode(_ bytes: some Collection<UInt8>) throws(KeymapError) -> [EvdevEvent] {
        let data = Array(bytes)
        guard data.count % size == 0 else {
            throw .invalidInputEvents("\(data.count) bytes is not a whole number of 24-byte input_event records")
        }
        guard data.count / size <= maximumCount else {
            throw .invalidInputEvents("more than \(maximumCount) events")
        }
        var events: [EvdevEvent] = []
        events.reserveCapacity(data.count / size)
        var offset = 0
        while offset < data.count {
            func integer(_ start: Int, _ length: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in (0..<length).reversed() { value = value << 8 | UInt64(data[offset + start + index]) }
                return value
            }
            let event = EvdevEvent(
                seconds: Int64(bitPattern: integer(0, 8)), microseconds: Int64(bitPattern: integer(8, 8)),
                type: UInt16(integer(16, 2)), code: UInt16(integer(18, 2)),
                value: Int32(bitPattern: UInt32(integer(20, 4))))
            guard (0..<1_000_000).contains(event.microseconds), (0...(1 << 40)).contains(event.seconds) else {
                throw .invalidInputEvents("event \(events.count + 1) has an invalid timestamp")
            }
            events.append(event)
            offset += size
        }
        return events
    }
}
