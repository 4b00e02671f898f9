import Foundation
import KeyboardLinkDBus
import KeyboardLinkSimulator
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDrivers

/// Seeded fuzzing of what kblink decodes from a ZMK Studio keyboard: the frame decoder (start, escape, end), the
/// protobuf wire reader and the response and notification messages, fed random bytes and mutated valid frames.
///
/// Properties: nothing crashes or hangs, every failure is the decoder's typed error with a message, and valid
/// messages round-trip. Case `n` of a test draws from its own generator seeded with the test's seed plus `n`, so a
/// failure names the case and the seed that repeat it; a crash is found again by running with
/// `KBLINK_FUZZ_TRACE=1`, which prints each case's seed before running it. `KBLINK_FUZZ_CASES` raises the number of
/// cases (CI runs 200,000); the default keeps the test suite quick.
@Suite("Fuzzing the ZMK Studio decoders")
struct StudioDecoderFuzzTests {
    static let cases = Int(ProcessInfo.processInfo.environment["KBLINK_FUZZ_CASES"] ?? "") ?? 3_000
    static let trace = ProcessInfo.processInfo.environment["KBLINK_FUZZ_TRACE"] == "1"

    /// The generator of case `index` of a test seeded with `seed`; prints the seed when tracing.
    static func generator(_ seed: UInt64, case index: Int) -> SeededRandom {
        let caseSeed = seed &+ UInt64(index)
        if trace { print("StudioDecoderFuzzTests: case \(index) seed 0x\(String(caseSeed, radix: 16))") }
        return SeededRandom(seed: caseSeed)
    }

    /// What a case says about itself in a failure.
    static func label(_ seed: UInt64, _ index: Int, _ bytes: [UInt8]) -> Comment {
        let hex = bytes.prefix(64).map { String($0, radix: 16) }.joined(separator: " ")
        return "case \(index), seed 0x\(String(seed &+ UInt64(index), radix: 16)), input [\(hex)]"
    }

    /// Valid responses and notifications as the simulated Aula F87 sends them, plus hand-made edge cases.
    static let corpus: [StudioResponse] = {
        var firmware = SimulatedStudioFirmware(macroBehaviorNames: ["Email Signature", "Ünïcode ✓"])
        var responses = firmware.unlock()
        var id: UInt32 = 0
        func ask(_ subsystem: StudioRequest.Subsystem) {
            id += 1
            responses += firmware.handle(StudioRequest(requestID: id, subsystem: subsystem))
        }
        ask(.core(.getDeviceInfo))
        ask(.core(.getLockState))
        ask(.behaviors(.listAllBehaviors))
        for behavior in firmware.behaviors {
            ask(.behaviors(.getBehaviorDetails(behaviorID: behavior.id)))
        }
        ask(.keymap(.getKeymap))
        ask(.keymap(.getPhysicalLayouts))
        let binding = StudioBehaviorBinding(
            behaviorID: Int32(firmware.behaviors[0].id), param1: StudioHIDUsage(page: 0x07, id: 0x2A).param1)
        ask(.keymap(.setLayerBinding(.init(layerID: 1, keyPosition: 3, binding: binding))))
        ask(.keymap(.checkUnsavedChanges))
        ask(.keymap(.saveChanges))
        ask(.keymap(.discardChanges))
        ask(.behaviors(.getBehaviorDetails(behaviorID: 0xFFFF)))
        responses += firmware.lock()
        ask(.keymap(.getKeymap))
        responses.append(.notification(.keymap(.unsavedChangesStatusChanged(true))))
        responses.append(
            .requestResponse(.init(requestID: UInt32.max, payload: .meta(.simpleError(.unlockRequired)))))
        return responses
    }()

    /// One to four random changes: flip a bit, insert or delete a byte, duplicate or drop a run, truncate, or
    /// insert a framing byte.
    static func mutate(_ input: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...3, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 1:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...32, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4:
                bytes = Array(bytes.prefix(position))
            case 5 where !bytes.isEmpty:
                bytes[position] = [0x00, 0x7F, 0x80, 0xFF].randomElement(using: &random) ?? 0
            default:
                let framing = [StudioFrameCodec.startOfFrame, StudioFrameCodec.escape, StudioFrameCodec.endOfFrame]
                bytes.insert(framing.randomElement(using: &random) ?? 0xAB, at: position)
            }
        }
        return bytes
    }

    static func randomBytes(_ random: inout SeededRandom, maximum: Int = 96) -> [UInt8] {
        (0..<Int.random(in: 0...maximum, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Either random bytes, or a mutated valid response (most cases: they reach deeper into the decoders).
    static func protobufInput(_ random: inout SeededRandom) -> [UInt8] {
        if Int.random(in: 0..<4, using: &random) == 0 { return randomBytes(&random) }
        let valid = corpus.randomElement(using: &random)?.serializedBytes() ?? []
        return mutate(valid, &random)
    }

    /// Feeds `stream` to a frame decoder in random chunks and collects payloads and errors until it is drained.
    static func decodeFrames(
        _ stream: [UInt8], maximumPayloadLength: Int = StudioFrameCodec.defaultMaximumPayloadLength,
        _ random: inout SeededRandom
    ) -> (payloads: [[UInt8]], errors: [StudioFramingError]) {
        var decoder = StudioFrameDecoder(maximumPayloadLength: maximumPayloadLength)
        var payloads: [[UInt8]] = []
        var errors: [StudioFramingError] = []
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + Int.random(in: 1...40, using: &random))
            decoder.append(stream[index..<end])
            index = end
            // Each call consumes at least one byte or returns nil, so this ends; the bound catches a decoder
            // that stops making progress.
            for _ in 0...(stream.count + 1) {
                do throws(StudioFramingError) {
                    guard let payload = try decoder.nextPayload() else { break }
                    payloads.append(payload)
                } catch {
                    errors.append(error)
                }
            }
        }
        do throws(StudioFramingError) {
            try decoder.finish()
        } catch {
            errors.append(error)
        }
        return (payloads, errors)
    }

    @Test("the corpus is valid: every response round-trips and survives framing")
    func corpusRoundTrips() throws {
        #expect(Self.corpus.count > 20)
        for response in Self.corpus {
            let bytes = response.serializedBytes()
            #expect(try StudioResponse(serializedBytes: bytes) == response)
            var decoder = StudioFrameDecoder()
            decoder.append(StudioFrameCodec.encode(bytes))
            #expect(try decoder.nextPayload() == bytes)
        }
    }

    @Test("random and mutated streams: the frame decoder never hangs, and payloads stay within the limit")
    func frameDecoder() {
        let seed: UInt64 = 0x5EED_F2A3_0001
        for index in 0..<Self.cases {
            var random = Self.generator(seed, case: index)
            let stream: [UInt8]
            if Bool.random(using: &random) {
                // Random bytes, rich in framing bytes so that every state of the decoder is visited.
                stream = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                    Int.random(in: 0..<3, using: &random) == 0
                        ? [0xAB, 0xAC, 0xAD].randomElement(using: &random) ?? 0xAB
                        : UInt8.random(in: 0...255, using: &random)
                }
            } else {
                let frames = (0..<Int.random(in: 1...4, using: &random)).flatMap { _ in
                    StudioFrameCodec.encode(Self.corpus.randomElement(using: &random)?.serializedBytes() ?? [])
                }
                stream = Self.mutate(frames, &random)
            }
            let limit = Int.random(in: 1...128, using: &random)
            let (payloads, errors) = Self.decodeFrames(stream, maximumPayloadLength: limit, &random)
            func label() -> Comment { Self.label(seed, index, stream) }
            #expect(payloads.allSatisfy { $0.count <= limit }, label())
            #expect(errors.allSatisfy { !$0.description.isEmpty }, label())
            // Every payload byte came from the stream: never more payload than input.
            #expect(payloads.reduce(0) { $0 + $1.count } <= stream.count, label())
            // Whatever a payload holds, decoding it as a response either succeeds or throws ProtobufError.
            for payload in payloads {
                do throws(ProtobufError) {
                    _ = try StudioResponse(serializedBytes: payload)
                } catch {
                    #expect(!error.description.isEmpty, label())
                }
            }
        }
    }

    @Test("random payloads framed, chunked and separated by noise come out of the frame decoder unchanged")
    func frameRoundTrip() {
        let seed: UInt64 = 0x5EED_F2A3_0002
        for index in 0..<Self.cases {
            var random = Self.generator(seed, case: index)
            let payloads = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                Self.randomBytes(&random, maximum: 60).map { byte in
                    // Escaped bytes are frequent in real payloads (ids and lengths of 0xAB...0xAD).
                    Int.random(in: 0..<4, using: &random) == 0 ? 0xAB + byte % 3 : byte
                }
            }
            var stream: [UInt8] = []
            for payload in payloads {
                // Noise between frames never holds a start byte; the decoder skips it.
                stream += (0..<Int.random(in: 0...6, using: &random)).map { _ in
                    UInt8.random(in: 0...0xAA, using: &random)
                }
                stream += StudioFrameCodec.encode(payload)
            }
            let (decoded, errors) = Self.decodeFrames(stream, &random)
            func label() -> Comment { Self.label(seed, index, stream) }
            #expect(decoded == payloads, label())
            #expect(errors.isEmpty, label())
        }
    }

    @Test("random and mutated bytes: the protobuf reader walks every field or throws ProtobufError")
    func wireReader() {
        let seed: UInt64 = 0x5EED_F2A3_0003
        for index in 0..<Self.cases {
            var random = Self.generator(seed, case: index)
            let bytes = Self.protobufInput(&random)
            func label() -> Comment { Self.label(seed, index, bytes) }
            #expect(Self.walk(bytes, depth: 0) != nil, label())
        }
    }

    /// Walks every field of `bytes`, descending into length-delimited fields as if they were messages (as a
    /// decoder that does not know the schema would). Returns the field count, or nil when a step did not advance.
    static func walk(_ bytes: [UInt8], depth: Int) -> Int? {
        var reader = ProtobufReader(bytes)
        var fields = 0
        do throws(ProtobufError) {
            while let field = try reader.nextField() {
                let before = reader.offset
                #expect(field >= 1 && field <= ProtobufWriter.maximumFieldNumber)
                switch reader.currentWireType {
                case .varint?: _ = try reader.readUInt64()
                case .fixed32?: _ = try reader.readFixed32()
                case .fixed64?: _ = try reader.readFixed64()
                case .lengthDelimited?:
                    let inner = try reader.readBytes()
                    if depth < 4, walk(inner, depth: depth + 1) == nil { return nil }
                default: try reader.skipField()
                }
                guard reader.offset > before, reader.offset <= bytes.count else { return nil }
                fields += 1
            }
        } catch {
            #expect(!error.description.isEmpty)
        }
        return fields
    }

    @Test("random and mutated bytes: response and notification decoders decode or throw ProtobufError")
    func messageDecoders() {
        let seed: UInt64 = 0x5EED_F2A3_0004
        var decoded = 0
        var refused = 0
        for index in 0..<Self.cases {
            var random = Self.generator(seed, case: index)
            let bytes = Self.protobufInput(&random)
            func label() -> Comment { Self.label(seed, index, bytes) }
            // Each decoder on its own (a mutation often turns one message into a valid other one).
            let results = [
                Self.decode(StudioResponse.self, bytes, label),
                Self.decode(StudioRequestResponse.self, bytes, label),
                Self.decode(StudioNotification.self, bytes, label),
                Self.decode(StudioKeymapResponse.self, bytes, label),
                Self.decode(StudioBehaviorsResponse.self, bytes, label),
                Self.decode(StudioCoreResponse.self, bytes, label),
                Self.decode(StudioRequest.self, bytes, label),
            ]
            decoded += results.filter { $0 }.count
            refused += results.filter { !$0 }.count
        }
        // Both paths were exercised.
        #expect(decoded > 0 && refused > 0)
    }

    /// Decodes `bytes` as `type`: on success the message re-encodes to bytes that decode to the same message
    /// (a fixed point after one re-encoding: unknown fields are dropped); on failure the error says what is
    /// wrong. Returns whether it decoded.
    static func decode<Message: ProtobufMessage & Equatable>(
        _ type: Message.Type, _ bytes: [UInt8], _ label: () -> Comment
    ) -> Bool {
        do throws(ProtobufError) {
            let message = try Message(serializedBytes: bytes)
            let encoded = message.serializedBytes()
            if let again = try? Message(serializedBytes: encoded) {
                #expect(again.serializedBytes() == encoded, label())
            }
            return true
        } catch {
            #expect(!error.description.isEmpty, label())
            return false
        }
    }

    @Test("valid responses with random ids round-trip through encoder, framing in chunks and decoder")
    func validRoundTrip() throws {
        let seed: UInt64 = 0x5EED_F2A3_0005
        for index in 0..<Self.cases {
            var random = Self.generator(seed, case: index)
            guard var response = Self.corpus.randomElement(using: &random) else { continue }
            if case .requestResponse(var answer) = response {
                answer.requestID = UInt32.random(in: 0...UInt32.max, using: &random)
                response = .requestResponse(answer)
            }
            let bytes = response.serializedBytes()
            let (payloads, errors) = Self.decodeFrames(StudioFrameCodec.encode(bytes), &random)
            func label() -> Comment { Self.label(seed, index, bytes) }
            #expect(errors.isEmpty && payloads == [bytes], label())
            #expect((try? StudioResponse(serializedBytes: payloads.first ?? [])) == response, label())
        }
    }
}
