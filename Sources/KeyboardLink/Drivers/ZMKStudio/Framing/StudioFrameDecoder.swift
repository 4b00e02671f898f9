/// Reassembles ZMK Studio frames from chunks of any size (GATT indications arrive ~20 bytes at a time).
///
/// Feed bytes with `append(_:)`, then call `nextPayload()` until it returns nil. Errors are thrown one at a
/// time, in stream order, and the decoder resynchronises before throwing, so the caller logs the error and keeps
/// calling `nextPayload()`. Bytes outside a frame (before a start byte) are skipped and counted.
package struct StudioFrameDecoder: Sendable {
    private enum State: Sendable {
        /// Outside a frame, waiting for a start byte.
        case idle
        /// Inside a frame.
        case payload
        /// Inside a frame, right after an escape byte.
        case escaped
    }

    /// The payload length beyond which a frame is dropped.
    package let maximumPayloadLength: Int
    /// How many bytes outside any frame were skipped so far.
    package private(set) var skippedByteCount = 0

    private var input: [UInt8] = []
    private var inputIndex = 0
    private var state = State.idle
    private var payload: [UInt8] = []

    /// Creates a decoder.
    /// - Parameter maximumPayloadLength: the longest payload accepted (after unescaping).
    package init(maximumPayloadLength: Int = StudioFrameCodec.defaultMaximumPayloadLength) {
        self.maximumPayloadLength = max(1, maximumPayloadLength)
    }

    /// Whether the decoder is inside a frame (some of its bytes arrived, its end has not).
    package var isInsideFrame: Bool { state != .idle }

    /// Adds received bytes.
    package mutating func append(_ chunk: some Collection<UInt8>) {
        if inputIndex > 0 && inputIndex == input.count {
            input.removeAll(keepingCapacity: true)
            inputIndex = 0
        }
        input.append(contentsOf: chunk)
    }

    /// Returns the next complete payload, or nil when the bytes so far hold none.
    /// - Throws: StudioFramingError for a dropped frame; call again to continue after it.
    package mutating func nextPayload() throws(StudioFramingError) -> [UInt8]? {
        while inputIndex < input.count {
            let byte = input[inputIndex]
            inputIndex += 1
            switch state {
            case .idle:
                if byte == StudioFrameCodec.startOfFrame {
                    state = .payload
                    payload.removeAll(keepingCapacity: true)
                } else {
                    skippedByteCount += 1
                }
            case .payload:
                switch byte {
                case StudioFrameCodec.startOfFrame:
                    // A repeated start byte loses nothing; one after payload bytes means a frame lost its end.
                    guard !payload.isEmpty else { continue }
                    let dropped = payload.count
                    payload.removeAll(keepingCapacity: true)
                    throw .unexpectedStartOfFrame(droppedLength: dropped)
                case StudioFrameCodec.escape:
                    state = .escaped
                case StudioFrameCodec.endOfFrame:
                    state = .idle
                    let complete = payload
                    payload.removeAll(keepingCapacity: true)
                    compactInput()
                    return complete
                default:
                    try appendPayloadByte(byte)
                }
            case .escaped:
                guard StudioFrameCodec.needsEscape(byte) else {
                    resync()
                    throw .invalidEscape(byte: byte)
                }
                state = .payload
                try appendPayloadByte(byte)
            }
        }
        compactInput()
        return nil
    }

    /// Ends the stream (the link closed): drops a partial frame and reports it.
    /// - Throws: StudioFramingError.truncatedFrame when the stream ended inside a frame.
    package mutating func finish() throws(StudioFramingError) {
        let wasEscaped = state == .escaped
        let length = payload.count
        let inside = state != .idle
        resync()
        input.removeAll()
        inputIndex = 0
        if inside { throw .truncatedFrame(length: length, afterEscape: wasEscaped) }
    }

    /// Forgets everything received so far (after a reconnect).
    package mutating func reset() {
        resync()
        input.removeAll()
        inputIndex = 0
    }

    private mutating func appendPayloadByte(_ byte: UInt8) throws(StudioFramingError) {
        guard payload.count < maximumPayloadLength else {
            resync()
            throw .frameTooLong(limit: maximumPayloadLength)
        }
        payload.append(byte)
    }

    private mutating func resync() {
        state = .idle
        payload.removeAll(keepingCapacity: true)
    }

    private mutating func compactInput() {
        if inputIndex == input.count {
            input.removeAll(keepingCapacity: true)
            inputIndex = 0
        } else if inputIndex > 4096 {
            input.removeFirst(inputIndex)
            inputIndex = 0
        }
    }
}
