import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// A pure simulation of a QMK keyboard's VIA side: answers 32-byte reports like QMK's `via.c` with a real keymap
/// and macro buffer, records every write, and can inject faults.
///
/// Out-of-range keycode positions read as 0 and are ignored on write, and buffer ranges past the end read as 0
/// and are ignored on write, as in QMK's `dynamic_keymap.c`.
package struct SimulatedVIAKeyboard: Sendable {
    /// A fault to inject; each fires once.
    package enum Fault: Hashable, Sendable {
        /// The `call`-th write command (1-based; set keycode, set buffer, set value, resets) is answered with
        /// 0xFF and not applied.
        case failWrite(call: Int)
        /// After answering the `afterReports`-th report, the link drops.
        case dropConnection(afterReports: Int)
    }

    /// A state change the keyboard accepted, in order.
    package enum Write: Hashable, Sendable {
        /// `dynamic_keymap_set_keycode` at a position inside the keymap.
        case keycode(VIAKeyPosition, UInt16)
        /// `dynamic_keymap_set_buffer`.
        case keymapBuffer(offset: Int, bytes: [UInt8])
        /// `dynamic_keymap_macro_set_buffer`.
        case macroBuffer(offset: Int, bytes: [UInt8])
        /// `set_keyboard_value` for a settable value.
        case keyboardValue(VIAKeyboardValueID, UInt32)
        /// `dynamic_keymap_reset`.
        case keymapReset
        /// `dynamic_keymap_macro_reset`.
        case macroReset
    }

    /// The protocol version reported (0x000B for current QMK).
    package var protocolVersion: UInt16
    /// The firmware version reported for `get_keyboard_value(firmware_version)`.
    package var firmwareVersion: UInt32
    /// How many macros the firmware has slots for.
    package let macroCount: Int
    /// The keymap now.
    package private(set) var keymap: VIAKeymap
    /// The keymap compiled into the firmware (`dynamic_keymap_reset` restores it).
    package private(set) var defaultKeymap: VIAKeymap
    /// The macro buffer now.
    package private(set) var macroBuffer: [UInt8]
    /// The layout options value.
    package private(set) var layoutOptions: UInt32 = 0
    /// Accepted writes, in order.
    package private(set) var writeLog: [Write] = []
    /// Reports answered so far (also the simulated uptime in milliseconds).
    package private(set) var reportCount = 0
    /// Whether the link is up.
    package private(set) var isConnected = true

    private var faults: Set<Fault>
    private var writeCalls = 0

    /// Creates a keyboard. Layer 0 of the default keymap holds keycodes 0x04 upward (A, B, ...), the other layers
    /// KC_TRNS (0x0001).
    /// - Throws: VIAClientError.invalidKeymapGeometry for dimensions VIA cannot carry.
    package init(
        layers: Int = 4, rows: Int = 6, columns: Int = 17, macroCount: Int = 16, macroBufferSize: Int = 1_024,
        protocolVersion: UInt16 = 0x000B, firmwareVersion: UInt32 = 0x0001_0203, faults: Set<Fault> = []
    ) throws(VIAClientError) {
        var keymap = try VIAKeymap(layers: layers, rows: rows, columns: columns, fill: 0x0001)
        for index in 0..<(rows * columns) {
            try keymap.setKeycode(UInt16(0x04 + index % 0xA0), at: keymap.position(ofIndex: index))
        }
        self.keymap = keymap
        defaultKeymap = keymap
        self.macroCount = macroCount
        macroBuffer = [UInt8](repeating: 0, count: max(0, min(macroBufferSize, 0xFFFF)))
        self.protocolVersion = protocolVersion
        self.firmwareVersion = firmwareVersion
        self.faults = faults
    }

    /// The simulator's VGN 98Pro: 4 layers of a 6 x 17 matrix and a 1 KiB macro buffer (the simulator's choice,
    /// not read from the real keyboard's definition).
    package static func vgn98Pro(faults: Set<Fault> = []) -> SimulatedVIAKeyboard {
        // Fixed dimensions inside VIA's limits: this cannot throw.
        (try? SimulatedVIAKeyboard(faults: faults))!
    }

    /// A keyboard whose matrix comes from `layout` (largest row and column plus one), holding `keymap` (bindings
    /// with no QMK keycode hold KC_NO), by default its owner's (`SimulatedOwnerKeymap`, not kblink's default: as a
    /// real keyboard's), with the owner's macro in slot 0, played by the 13th key on layer 1.
    /// - Throws: VIAClientError.invalidKeymapGeometry for a layout VIA cannot carry.
    package static func matching(_ layout: PhysicalLayout, layers: Int = 4, keymap wanted: Keymap? = nil)
        throws(VIAClientError) -> SimulatedVIAKeyboard
    {
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        var keyboard = try SimulatedVIAKeyboard(layers: layers, rows: rows, columns: columns)
        var keymap = try VIAKeymap(layers: layers, rows: rows, columns: columns, fill: 0x0000)
        var source = wanted ?? SimulatedOwnerKeymap.keymap(for: layout, layerCount: layers)
        if wanted == nil && layers > 1 && layout.keys.count > 12 {
            source.setAction(.qmkKeycode(KeyAction.qmkMacroBase), layer: 1, key: layout.keys[12].name)
            let text = Array(SimulatedOwnerKeymap.viaMacroText.utf8)
            keyboard.macroBuffer.replaceSubrange(0..<min(text.count, keyboard.macroBuffer.count - 1), with: text)
        }
        for layer in 0..<layers {
            for key in layout.keys {
                let action = source.action(layer: layer, key: key.name) ?? Keymap.clearedAction(layer: layer)
                guard let code = try? action.qmkKeycode(), let layerIndex = UInt8(exactly: layer),
                    let row = UInt8(exactly: key.matrix.row), let column = UInt8(exactly: key.matrix.column)
                else { continue }
                try keymap.setKeycode(code, at: VIAKeyPosition(layer: layerIndex, row: row, column: column))
            }
        }
        keyboard.keymap = keymap
        keyboard.defaultKeymap = keymap
        return keyboard
    }

    /// Macro `index` as QMK would play it: nil while the buffer's last byte is non-zero (a write in progress)
    /// or when the buffer holds fewer macros.
    package func playableMacro(_ index: Int) -> [UInt8]? {
        guard macroBuffer.last == 0, index >= 0 else { return nil }
        let macros = macroBuffer.split(separator: 0, omittingEmptySubsequences: false)
        guard index < macros.count - 1 else { return nil }
        return Array(macros[index])
    }

    /// The link came back after a drop.
    package mutating func reconnect() {
        isConnected = true
    }

    /// Answers one report; nil when the link is down (nothing is answered).
    package mutating func handle(_ report: VIAReport) -> VIAReport? {
        guard isConnected else { return nil }
        reportCount += 1
        let reply = answer(report)
        if faults.remove(.dropConnection(afterReports: reportCount)) != nil {
            isConnected = false
        }
        return reply
    }

    private mutating func answer(_ report: VIAReport) -> VIAReport {
        var reply = report.bytes
        let command: VIACommand
        do {
            command = try VIACommand(report: report)
        } catch {
            reply[0] = VIACommandID.unhandled.rawValue
            return VIAReport(padding: reply)
        }
        if command.isWrite {
            writeCalls += 1
            if faults.remove(.failWrite(call: writeCalls)) != nil {
                reply[0] = VIACommandID.unhandled.rawValue
                return VIAReport(padding: reply)
            }
        }
        switch command {
        case .getProtocolVersion:
            reply[1] = UInt8(protocolVersion >> 8)
            reply[2] = UInt8(protocolVersion & 0xFF)
        case .getKeyboardValue(let id):
            let value: UInt32? =
                switch id {
                case .uptime: UInt32(truncatingIfNeeded: reportCount)
                case .layoutOptions: layoutOptions
                case .firmwareVersion: firmwareVersion
                case .switchMatrixState, .deviceIndication: nil
                }
            guard let value else {
                reply[0] = VIACommandID.unhandled.rawValue
                break
            }
            reply.replaceSubrange(2..<6, with: VIACommand.bigEndian(value))
        case let .setKeyboardValue(id, value):
            switch id {
            case .layoutOptions:
                layoutOptions = value
                writeLog.append(.keyboardValue(id, value))
            case .deviceIndication:
                writeLog.append(.keyboardValue(id, value))
            default:
                reply[0] = VIACommandID.unhandled.rawValue
            }
        case let .getKeycode(layer, row, column):
            let keycode = keymap.keycode(at: VIAKeyPosition(layer: layer, row: row, column: column)) ?? 0
            reply[4] = UInt8(keycode >> 8)
            reply[5] = UInt8(keycode & 0xFF)
        case let .setKeycode(layer, row, column, keycode):
            let position = VIAKeyPosition(layer: layer, row: row, column: column)
            if (try? keymap.setKeycode(keycode, at: position)) != nil {
                writeLog.append(.keycode(position, keycode))
            }
        case .resetKeymap:
            keymap = defaultKeymap
            writeLog.append(.keymapReset)
        case .macroGetCount:
            reply[1] = UInt8(clamping: macroCount)
        case .macroGetBufferSize:
            reply[1] = UInt8(macroBuffer.count >> 8)
            reply[2] = UInt8(macroBuffer.count & 0xFF)
        case let .macroGetBuffer(offset, length):
            reply.replaceSubrange(4..<(4 + Int(length)), with: Self.read(macroBuffer, Int(offset), Int(length)))
        case let .macroSetBuffer(offset, data):
            Self.write(&macroBuffer, Int(offset), data)
            writeLog.append(.macroBuffer(offset: Int(offset), bytes: data))
        case .macroReset:
            macroBuffer = [UInt8](repeating: 0, count: macroBuffer.count)
            writeLog.append(.macroReset)
        case .getLayerCount:
            reply[1] = UInt8(clamping: keymap.layers)
        case let .keymapGetBuffer(offset, length):
            reply.replaceSubrange(4..<(4 + Int(length)), with: Self.read(keymap.bufferBytes, Int(offset), Int(length)))
        case let .keymapSetBuffer(offset, data):
            var bytes = keymap.bufferBytes
            Self.write(&bytes, Int(offset), data)
            if let updated = try? VIAKeymap(
                bufferBytes: bytes, layers: keymap.layers, rows: keymap.rows, columns: keymap.columns)
            {
                keymap = updated
            }
            writeLog.append(.keymapBuffer(offset: Int(offset), bytes: data))
        }
        return VIAReport(padding: reply)
    }

    private static func read(_ buffer: [UInt8], _ offset: Int, _ length: Int) -> [UInt8] {
        (offset..<(offset + length)).map { buffer.indices.contains($0) ? buffer[$0] : 0 }
    }

    private static func write(_ buffer: inout [UInt8], _ offset: Int, _ data: [UInt8]) {
        for (index, byte) in data.enumerated() where buffer.indices.contains(offset + index) {
            buffer[offset + index] = byte
        }
    }
}
