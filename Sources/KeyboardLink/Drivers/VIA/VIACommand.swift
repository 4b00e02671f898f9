/// A VIA request and its 32-byte encoding (layouts from QMK's `via.c`; multi-byte values are big-endian).
package enum VIACommand: Hashable, Sendable {
    /// `[01]` → `[01, version_hi, version_lo]`.
    case getProtocolVersion
    /// `[02, id]` → `[02, id, value...]` (u32 big-endian for uptime, layout options, firmware version).
    case getKeyboardValue(VIAKeyboardValueID)
    /// `[03, id, u32 big-endian]`.
    case setKeyboardValue(VIAKeyboardValueID, UInt32)
    /// `[04, layer, row, column]` → `[04, layer, row, column, kc_hi, kc_lo]`.
    case getKeycode(layer: UInt8, row: UInt8, column: UInt8)
    /// `[05, layer, row, column, kc_hi, kc_lo]`.
    case setKeycode(layer: UInt8, row: UInt8, column: UInt8, keycode: UInt16)
    /// `[06]`: restore the keymap compiled into the firmware.
    case resetKeymap
    /// `[0C]` → `[0C, count]`.
    case macroGetCount
    /// `[0D]` → `[0D, size_hi, size_lo]`.
    case macroGetBufferSize
    /// `[0E, offset_hi, offset_lo, length]` → the same with `length` bytes from index 4.
    case macroGetBuffer(offset: UInt16, length: UInt8)
    /// `[0F, offset_hi, offset_lo, length, data...]`.
    case macroSetBuffer(offset: UInt16, data: [UInt8])
    /// `[10]`: clear every macro.
    case macroReset
    /// `[11]` → `[11, count]`.
    case getLayerCount
    /// `[12, offset_hi, offset_lo, length]` → the same with `length` bytes of the keymap buffer from index 4.
    case keymapGetBuffer(offset: UInt16, length: UInt8)
    /// `[13, offset_hi, offset_lo, length, data...]`.
    case keymapSetBuffer(offset: UInt16, data: [UInt8])

    /// The most buffer bytes one report carries (32 minus the four header bytes).
    package static let maximumChunkLength = 28

    /// The command id.
    package var id: VIACommandID {
        switch self {
        case .getProtocolVersion: .getProtocolVersion
        case .getKeyboardValue: .getKeyboardValue
        case .setKeyboardValue: .setKeyboardValue
        case .getKeycode: .dynamicKeymapGetKeycode
        case .setKeycode: .dynamicKeymapSetKeycode
        case .resetKeymap: .dynamicKeymapReset
        case .macroGetCount: .macroGetCount
        case .macroGetBufferSize: .macroGetBufferSize
        case .macroGetBuffer: .macroGetBuffer
        case .macroSetBuffer: .macroSetBuffer
        case .macroReset: .macroReset
        case .getLayerCount: .getLayerCount
        case .keymapGetBuffer: .dynamicKeymapGetBuffer
        case .keymapSetBuffer: .dynamicKeymapSetBuffer
        }
    }

    /// Whether the command changes the keyboard's state.
    package var isWrite: Bool {
        switch self {
        case .setKeyboardValue, .setKeycode, .resetKeymap, .macroSetBuffer, .macroReset, .keymapSetBuffer: true
        default: false
        }
    }

    /// The bytes that identify the request, which a reply must echo (data bytes of set commands included).
    var echoedPrefix: [UInt8] {
        let command = id.rawValue
        switch self {
        case .getProtocolVersion, .resetKeymap, .macroGetCount, .macroGetBufferSize, .macroReset, .getLayerCount:
            return [command]
        case .getKeyboardValue(let value):
            return [command, value.rawValue]
        case let .setKeyboardValue(value, number):
            return [command, value.rawValue] + Self.bigEndian(number)
        case let .getKeycode(layer, row, column):
            return [command, layer, row, column]
        case let .setKeycode(layer, row, column, keycode):
            return [command, layer, row, column, UInt8(keycode >> 8), UInt8(keycode & 0xFF)]
        case let .macroGetBuffer(offset, length), let .keymapGetBuffer(offset, length):
            return [command, UInt8(offset >> 8), UInt8(offset & 0xFF), length]
        case let .macroSetBuffer(offset, data), let .keymapSetBuffer(offset, data):
            return [command, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(truncatingIfNeeded: data.count)] + data
        }
    }

    /// The request report.
    /// - Throws: VIAProtocolError.chunkTooLong for more than 28 buffer bytes, .rangeOutOfBuffer past 64 KiB.
    package func report() throws(VIAProtocolError) -> VIAReport {
        switch self {
        case let .macroGetBuffer(offset, length), let .keymapGetBuffer(offset, length):
            try Self.checkChunk(offset: offset, length: Int(length))
        case let .macroSetBuffer(offset, data), let .keymapSetBuffer(offset, data):
            try Self.checkChunk(offset: offset, length: data.count)
        default:
            break
        }
        return VIAReport(padding: echoedPrefix)
    }

    /// Decodes a request report (what a keyboard receives).
    /// - Throws: VIAProtocolError.unknownCommand for an id VIA does not define (keyboards answer those with 0xFF),
    ///   .chunkTooLong for a buffer length above 28.
    package init(report: VIAReport) throws(VIAProtocolError) {
        let bytes = report.bytes
        guard let id = VIACommandID(rawValue: bytes[0]), id != .unhandled else { throw .unknownCommand(bytes[0]) }
        func chunk() throws(VIAProtocolError) -> (offset: UInt16, length: Int) {
            let length = Int(bytes[3])
            guard length <= Self.maximumChunkLength else { throw .chunkTooLong(length) }
            return (report.uint16(at: 1), length)
        }
        switch id {
        case .getProtocolVersion: self = .getProtocolVersion
        case .getKeyboardValue, .setKeyboardValue:
            guard let value = VIAKeyboardValueID(rawValue: bytes[1]) else { throw .unknownCommand(bytes[0]) }
            self = id == .getKeyboardValue ? .getKeyboardValue(value) : .setKeyboardValue(value, report.uint32(at: 2))
        case .dynamicKeymapGetKeycode: self = .getKeycode(layer: bytes[1], row: bytes[2], column: bytes[3])
        case .dynamicKeymapSetKeycode:
            self = .setKeycode(layer: bytes[1], row: bytes[2], column: bytes[3], keycode: report.uint16(at: 4))
        case .dynamicKeymapReset: self = .resetKeymap
        case .macroGetCount: self = .macroGetCount
        case .macroGetBufferSize: self = .macroGetBufferSize
        case .macroGetBuffer:
            let (offset, length) = try chunk()
            self = .macroGetBuffer(offset: offset, length: UInt8(length))
        case .macroSetBuffer:
            let (offset, length) = try chunk()
            self = .macroSetBuffer(offset: offset, data: Array(bytes[4..<(4 + length)]))
        case .macroReset: self = .macroReset
        case .getLayerCount: self = .getLayerCount
        case .dynamicKeymapGetBuffer:
            let (offset, length) = try chunk()
            self = .keymapGetBuffer(offset: offset, length: UInt8(length))
        case .dynamicKeymapSetBuffer:
            let (offset, length) = try chunk()
            self = .keymapSetBuffer(offset: offset, data: Array(bytes[4..<(4 + length)]))
        case .unhandled: throw .unknownCommand(bytes[0])
        }
    }

    /// Checks that `reply` answers this request and extracts its value.
    /// - Throws: VIAProtocolError.chunkTooLong / .rangeOutOfBuffer for a request that cannot be encoded,
    ///   .unsupportedCommand when the keyboard answered 0xFF (and echoed the rest),
    ///   .echoMismatch when the reply belongs to something else.
    package func decodeReply(_ reply: VIAReport) throws(VIAProtocolError) -> VIAReply {
        _ = try report()  // A request that cannot be encoded has no reply; this also bounds the echo below.
        let prefix = echoedPrefix
        let echoed = reply.bytes[1..<prefix.count].elementsEqual(prefix[1...])
        if reply.commandByte == VIACommandID.unhandled.rawValue && echoed {
            throw .unsupportedCommand(id)
        }
        guard reply.commandByte == prefix[0], echoed else { throw .echoMismatch(command: id, reply: reply) }
        switch self {
        case .getProtocolVersion:
            return .protocolVersion(reply.uint16(at: 1))
        case .getKeyboardValue(let value):
            return .keyboardValue(value, reply.uint32(at: 2))
        case .getKeycode:
            return .keycode(reply.uint16(at: 4))
        case .macroGetCount:
            return .macroCount(reply.bytes[1])
        case .macroGetBufferSize:
            return .macroBufferSize(reply.uint16(at: 1))
        case .getLayerCount:
            return .layerCount(reply.bytes[1])
        case let .macroGetBuffer(_, length), let .keymapGetBuffer(_, length):
            return .buffer(Array(reply.bytes[4..<(4 + min(Int(length), Self.maximumChunkLength))]))
        case .setKeyboardValue, .setKeycode, .resetKeymap, .macroSetBuffer, .macroReset, .keymapSetBuffer:
            return .acknowledged
        }
    }

    private static func checkChunk(offset: UInt16, length: Int) throws(VIAProtocolError) {
        guard length <= maximumChunkLength else { throw .chunkTooLong(length) }
        guard Int(offset) + length <= 0x1_0000 else { throw .rangeOutOfBuffer(offset: Int(offset), length: length) }
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
