import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDrivers

@Suite("ZMK Studio framing")
struct StudioFrameCodecTests {
    @Test("Each of the three framing bytes is preceded by 0xAC, other bytes pass through")
    func encodeEscapes() {
        let frame = StudioFrameCodec.encode([0x01, 0xAB, 0xAC, 0xAD, 0x02, 0xAA, 0xAE])
        #expect(frame == [0xAB, 0x01, 0xAC, 0xAB, 0xAC, 0xAC, 0xAC, 0xAD, 0x02, 0xAA, 0xAE, 0xAD])
    }

    @Test("An empty payload is a start byte and an end byte")
    func emptyPayload() throws {
        #expect(StudioFrameCodec.encode([]) == [0xAB, 0xAD])
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0xAD])
        #expect(try decoder.nextPayload() == [])
        #expect(try decoder.nextPayload() == nil)
    }

    static let payloads: [[UInt8]] = [
        [0x08, 0x01, 0x1A, 0x02, 0x08, 0x01],
        [0xAB, 0xAC, 0xAD, 0xAD, 0xAC, 0xAB],
        Array(0...255).map { UInt8($0) },
    ]

    @Test("Two-chunk delivery decodes the same payloads at every split point")
    func everySplitPoint() throws {
        let stream = Self.payloads.flatMap { StudioFrameCodec.encode($0) }
        for split in 0...stream.count {
            var decoder = StudioFrameDecoder()
            var decoded: [[UInt8]] = []
            for chunk in [Array(stream[..<split]), Array(stream[split...])] {
                decoder.append(chunk)
                while let payload = try decoder.nextPayload() { decoded.append(payload) }
            }
            #expect(decoded == Self.payloads, "split at \(split)")
            #expect(!decoder.isInsideFrame)
        }
    }

    @Test("Chunks of every size from 1 to 40 bytes decode the same payloads", arguments: 1...40)
    func chunkSizes(size: Int) throws {
        let stream = Self.payloads.flatMap { StudioFrameCodec.encode($0) }
        var decoder = StudioFrameDecoder()
        var decoded: [[UInt8]] = []
        for chunk in StudioFrameCodec.split(stream, maximumLength: size) {
            #expect(chunk.count <= size)
            decoder.append(chunk)
            while let payload = try decoder.nextPayload() { decoded.append(payload) }
        }
        #expect(decoded == Self.payloads)
    }

    @Test("Bytes before a start byte are skipped and counted")
    func garbageBeforeStart() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0x00, 0x11, 0xAD, 0xAC] + StudioFrameCodec.encode([0x05]) + [0x42])
        #expect(try decoder.nextPayload() == [0x05])
        #expect(try decoder.nextPayload() == nil)
        #expect(decoder.skippedByteCount == 5)
    }

    @Test("An overlong frame is an error, and the next frame still decodes")
    func overlongFrame() throws {
        var decoder = StudioFrameDecoder(maximumPayloadLength: 8)
        decoder.append(StudioFrameCodec.encode(Array(repeating: 0x01, count: 9)) + StudioFrameCodec.encode([0x07]))
        #expect(throws: StudioFramingError.frameTooLong(limit: 8)) { try decoder.nextPayload() }
        #expect(try decoder.nextPayload() == [0x07])
        #expect(try decoder.nextPayload() == nil)
    }

    @Test("A payload of exactly the limit is accepted")
    func payloadAtLimit() throws {
        var decoder = StudioFrameDecoder(maximumPayloadLength: 8)
        decoder.append(StudioFrameCodec.encode(Array(repeating: 0xAB, count: 8)))
        #expect(try decoder.nextPayload() == Array(repeating: 0xAB, count: 8))
    }

    @Test("An unescaped start byte inside a frame drops the partial frame and starts a new one")
    func unexpectedStart() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0x01, 0x02, 0xAB, 0x03, 0xAD])
        #expect(throws: StudioFramingError.unexpectedStartOfFrame(droppedLength: 2)) { try decoder.nextPayload() }
        #expect(try decoder.nextPayload() == [0x03])
    }

    @Test("Repeated start bytes lose nothing and are not an error")
    func repeatedStart() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0xAB, 0xAB, 0x03, 0xAD])
        #expect(try decoder.nextPayload() == [0x03])
    }

    @Test("An escape before an ordinary byte is an error and resynchronises at the next start byte")
    func invalidEscape() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0x01, 0xAC, 0x05, 0x06, 0xAD, 0xAB, 0x07, 0xAD])
        #expect(throws: StudioFramingError.invalidEscape(byte: 0x05)) { try decoder.nextPayload() }
        #expect(try decoder.nextPayload() == [0x07])
    }

    @Test("A stream that ends after an escape byte reports a truncated frame")
    func escapeAtEnd() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0x01, 0xAC])
        #expect(try decoder.nextPayload() == nil)
        #expect(decoder.isInsideFrame)
        #expect(throws: StudioFramingError.truncatedFrame(length: 1, afterEscape: true)) { try decoder.finish() }
        #expect(!decoder.isInsideFrame)
        try decoder.finish()
    }

    @Test("An escape that ends one chunk applies to the first byte of the next")
    func escapeAcrossChunks() throws {
        var decoder = StudioFrameDecoder()
        decoder.append([0xAB, 0x01, 0xAC])
        #expect(try decoder.nextPayload() == nil)
        decoder.append([0xAD, 0xAD])
        #expect(try decoder.nextPayload() == [0x01, 0xAD])
    }

    @Test("Random payloads survive framing in random chunks")
    func randomRoundTrips() throws {
        var generator = SeededRandom(seed: 0x5EED_F4A3)
        for _ in 0..<200 {
            let count = Int.random(in: 0...300, using: &generator)
            let payloads = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<count).map { _ in
                    // Favour the framing bytes so escapes are frequent.
                    Bool.random(using: &generator)
                        ? [0xAB, 0xAC, 0xAD].randomElement(using: &generator)!
                        : UInt8.random(in: 0...255, using: &generator)
                }
            }
            let stream = payloads.flatMap { StudioFrameCodec.encode($0) }
            var decoder = StudioFrameDecoder()
            var decoded: [[UInt8]] = []
            var index = 0
            while index < stream.count {
                let end = min(stream.count, index + Int.random(in: 1...25, using: &generator))
                decoder.append(stream[index..<end])
                index = end
                while let payload = try decoder.nextPayload() { decoded.append(payload) }
            }
            #expect(decoded == payloads)
        }
    }
}
