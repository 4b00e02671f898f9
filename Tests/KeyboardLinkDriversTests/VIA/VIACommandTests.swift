import Testing

@testable import KeyboardLinkDrivers

@Suite("VIA reports")
struct VIACommandTests {
    private func padded(_ prefix: [UInt8]) -> [UInt8] {
        prefix + [UInt8](repeating: 0, count: 32 - prefix.count)
    }

    static let encodings: [(VIACommand, [UInt8])] = [
        (.getProtocolVersion, [0x01]),
        (.getKeyboardValue(.uptime), [0x02, 0x01]),
        (.getKeyboardValue(.firmwareVersion), [0x02, 0x04]),
        (.setKeyboardValue(.layoutOptions, 0x0102_0304), [0x03, 0x02, 0x01, 0x02, 0x03, 0x04]),
        (.getKeycode(layer: 1, row: 2, column: 3), [0x04, 0x01, 0x02, 0x03]),
        (.setKeycode(layer: 1, row: 2, column: 3, keycode: 0x5220), [0x05, 0x01, 0x02, 0x03, 0x52, 0x20]),
        (.resetKeymap, [0x06]),
        (.macroGetCount, [0x0C]),
        (.macroGetBufferSize, [0x0D]),
        (.macroGetBuffer(offset: 0x0123, length: 28), [0x0E, 0x01, 0x23, 0x1C]),
        (.macroSetBuffer(offset: 0x03FF, data: [0x00]), [0x0F, 0x03, 0xFF, 0x01, 0x00]),
        (.macroReset, [0x10]),
        (.getLayerCount, [0x11]),
        (.keymapGetBuffer(offset: 0x00A8, length: 28), [0x12, 0x00, 0xA8, 0x1C]),
        (
            .keymapSetBuffer(offset: 2, data: [0x00, 0x04, 0x00, 0x05]),
            [0x13, 0x00, 0x02, 0x04, 0x00, 0x04, 0x00, 0x05]
        ),
    ]

    @Test("Requests encode to the hand-computed 32-byte reports and decode back", arguments: encodings)
    func encoding(command: VIACommand, prefix: [UInt8]) throws {
        let report = try command.report()
        #expect(report.bytes == padded(prefix))
        #expect(try VIACommand(report: report) == command)
    }

    @Test("Buffer chunks are limited to 28 bytes and to 16-bit offsets")
    func chunkLimits() throws {
        #expect(throws: VIAProtocolError.chunkTooLong(29)) {
            try VIACommand.macroSetBuffer(offset: 0, data: Array(repeating: 1, count: 29)).report()
        }
        #expect(throws: VIAProtocolError.chunkTooLong(29)) {
            try VIACommand.keymapGetBuffer(offset: 0, length: 29).report()
        }
        #expect(throws: VIAProtocolError.rangeOutOfBuffer(offset: 0xFFF0, length: 28)) {
            try VIACommand.keymapGetBuffer(offset: 0xFFF0, length: 28).report()
        }
        let full = try VIACommand.keymapSetBuffer(offset: 0, data: Array(repeating: 0xAA, count: 28)).report()
        #expect(full.bytes == [0x13, 0x00, 0x00, 0x1C] + Array(repeating: 0xAA, count: 28))
    }

    @Test("Replies decode to their values")
    func replies() throws {
        func reply(_ prefix: [UInt8]) throws -> VIAReport { try VIAReport(validating: padded(prefix)) }
        #expect(try VIACommand.getProtocolVersion.decodeReply(reply([0x01, 0x00, 0x0B])) == .protocolVersion(0x000B))
        #expect(
            try VIACommand.getKeyboardValue(.firmwareVersion).decodeReply(reply([0x02, 0x04, 0x01, 0x02, 0x03, 0x04]))
                == .keyboardValue(.firmwareVersion, 0x0102_0304))
        #expect(
            try VIACommand.getKeycode(layer: 1, row: 2, column: 3).decodeReply(reply([0x04, 1, 2, 3, 0x52, 0x20]))
                == .keycode(0x5220))
        #expect(try VIACommand.macroGetBufferSize.decodeReply(reply([0x0D, 0x03, 0xE8])) == .macroBufferSize(1_000))
        #expect(try VIACommand.getLayerCount.decodeReply(reply([0x11, 0x04])) == .layerCount(4))
        #expect(try VIACommand.macroGetCount.decodeReply(reply([0x0C, 0x10])) == .macroCount(16))
        #expect(
            try VIACommand.macroGetBuffer(offset: 0x10, length: 3).decodeReply(
                reply([0x0E, 0x00, 0x10, 0x03, 0x68, 0x69, 0x00]))
                == .buffer([0x68, 0x69, 0x00]))
        #expect(
            try VIACommand.setKeycode(layer: 0, row: 0, column: 1, keycode: 4).decodeReply(
                reply([0x05, 0, 0, 1, 0, 4]))
                == .acknowledged)
    }

    @Test("0xFF with the rest echoed means the keyboard does not handle the command")
    func unsupported() throws {
        let reply = try VIAReport(validating: padded([0xFF, 0x01, 0x02, 0x03]))
        #expect(throws: VIAProtocolError.unsupportedCommand(.dynamicKeymapGetKeycode)) {
            try VIACommand.getKeycode(layer: 1, row: 2, column: 3).decodeReply(reply)
        }
        let value = try VIAReport(validating: padded([0xFF, 0x03]))
        #expect(throws: VIAProtocolError.unsupportedCommand(.getKeyboardValue)) {
            try VIACommand.getKeyboardValue(.switchMatrixState).decodeReply(value)
        }
    }

    @Test("A reply that does not echo the request is a mismatch")
    func echoCheck() throws {
        let otherPosition = try VIAReport(validating: padded([0x04, 0x01, 0x02, 0x04, 0x00, 0x05]))
        #expect(throws: VIAProtocolError.echoMismatch(command: .dynamicKeymapGetKeycode, reply: otherPosition)) {
            try VIACommand.getKeycode(layer: 1, row: 2, column: 3).decodeReply(otherPosition)
        }
        let otherCommand = try VIAReport(validating: padded([0x11, 0x04]))
        #expect(throws: VIAProtocolError.echoMismatch(command: .getProtocolVersion, reply: otherCommand)) {
            try VIACommand.getProtocolVersion.decodeReply(otherCommand)
        }
        let changedData = try VIAReport(validating: padded([0x0F, 0x00, 0x00, 0x02, 0x68, 0x6A]))
        #expect(throws: VIAProtocolError.echoMismatch(command: .macroSetBuffer, reply: changedData)) {
            try VIACommand.macroSetBuffer(offset: 0, data: [0x68, 0x69]).decodeReply(changedData)
        }
    }

    @Test("Reports must be exactly 32 bytes; unknown command ids are refused")
    func validation() throws {
        #expect(throws: VIAProtocolError.wrongReportLength(33)) {
            try VIAReport(validating: [UInt8](repeating: 0, count: 33))
        }
        #expect(throws: VIAProtocolError.unknownCommand(0x07)) {
            try VIACommand(report: VIAReport(validating: padded([0x07])))
        }
        #expect(throws: VIAProtocolError.unknownCommand(0xFF)) {
            try VIACommand(report: VIAReport(validating: padded([0xFF])))
        }
        #expect(throws: VIAProtocolError.chunkTooLong(29)) {
            try VIACommand(report: VIAReport(validating: padded([0x13, 0x00, 0x00, 0x1D])))
        }
    }

    @Test("hidraw writes carry report number 0 before the 32 report bytes")
    func hidrawWriteBuffer() throws {
        let buffer = VIAHIDRawTransport.writeBuffer(for: try VIACommand.getLayerCount.report())
        #expect(buffer.count == 33)
        #expect(buffer.prefix(2) == [0x00, 0x11])
    }
}
