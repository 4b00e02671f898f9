/// A frame the decoder had to drop. The decoder has already resynchronised: it waits for the next start byte
/// (or has started a new frame at an unexpected one), so reading can simply continue.
package enum StudioFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload grew past `limit` bytes without an end byte.
    case frameTooLong(limit: Int)
    /// A start byte arrived inside a frame, unescaped: the frame before it lost its end (`droppedLength`
    /// payload bytes were discarded); a new frame starts at that byte.
    case unexpectedStartOfFrame(droppedLength: Int)
    /// An escape byte was followed by `byte`, which is not one of the three framing bytes ZMK escapes.
    case invalidEscape(byte: UInt8)
    /// The stream ended inside a frame (`finish()`), after an escape byte if `afterEscape` is true.
    case truncatedFrame(length: Int, afterEscape: Bool)

    package var description: String {
        switch self {
        case let .frameTooLong(limit):
            return "ZMK Studio frame longer than \(limit) bytes without an end byte; dropped it and waiting for the "
                + "next frame (is the peer really ZMK Studio?)"
        case let .unexpectedStartOfFrame(dropped):
            return "ZMK Studio frame lost its end byte (\(dropped) payload bytes dropped); a new frame started, "
                + "retry the request whose answer was lost"
        case let .invalidEscape(byte):
            return "ZMK Studio escape byte followed by 0x\(String(byte, radix: 16)), which is never escaped; frame "
                + "dropped as corrupt, retry the request"
        case let .truncatedFrame(length, afterEscape):
            return "ZMK Studio link ended inside a frame (\(length) payload bytes"
                + (afterEscape ? ", after an escape byte" : "") + "); reconnect and retry the request"
        }
    }
}
