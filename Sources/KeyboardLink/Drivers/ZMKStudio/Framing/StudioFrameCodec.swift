/// ZMK Studio's message framing: `0xAB`, the payload with `0xAB`, `0xAC` and `0xAD` each preceded by
/// `0xAC` (the byte itself is kept, not XORed), then `0xAD`.
///
/// Encoding is stateless; decoding an incoming stream is `StudioFrameDecoder`'s job.
package enum StudioFrameCodec {
    /// Start of frame.
    package static let startOfFrame: UInt8 = 0xAB
    /// Escape: the next byte is payload even if it is one of the three framing bytes.
    package static let escape: UInt8 = 0xAC
    /// End of frame.
    package static let endOfFrame: UInt8 = 0xAD

    /// The largest payload the decoder accepts by default (64 KiB); ZMK's own buffers are far smaller.
    package static let defaultMaximumPayloadLength = 64 * 1024

    /// Whether `byte` must be escaped inside a payload.
    package static func needsEscape(_ byte: UInt8) -> Bool {
        byte == startOfFrame || byte == escape || byte == endOfFrame
    }

    /// Frames `payload`: start byte, escaped payload, end byte.
    package static func encode(_ payload: some Collection<UInt8>) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + payload.count / 16 + 2)
        frame.append(startOfFrame)
        for byte in payload {
            if needsEscape(byte) { frame.append(escape) }
            frame.append(byte)
        }
        frame.append(endOfFrame)
        return frame
    }

    /// Splits `bytes` into chunks of at most `maximumLength` bytes, as a GATT link carries them (ZMK indicates
    /// about 20 bytes at a time; writes are bounded by the ATT MTU minus 3).
    /// - Precondition: `maximumLength` is positive (it comes from code or a negotiated MTU, not from a peer).
    package static func split(_ bytes: [UInt8], maximumLength: Int) -> [[UInt8]] {
        precondition(maximumLength > 0, "chunk length must be positive")
        return stride(from: 0, to: bytes.count, by: maximumLength).map {
            Array(bytes[$0..<min($0 + maximumLength, bytes.count)])
        }
    }
}
