/// VIA's operations over a `VIATransport`: one request, then its reply, checked to echo the request.
///
/// Not reentrant: the driver that owns a keyboard runs one operation at a time (two concurrent callers would
/// interleave their reports on the shared transport).
package struct VIAClient: Sendable {
    /// The link to the keyboard.
    package let transport: any VIATransport
    /// How many replies that answer something else (left over from a timed-out request) are skipped before the
    /// mismatch is reported.
    package var staleReplyLimit: Int

    /// Creates a client.
    package init(transport: any VIATransport, staleReplyLimit: Int = 4) {
        self.transport = transport
        self.staleReplyLimit = max(0, staleReplyLimit)
    }

    /// Sends `command` and returns its checked reply.
    /// - Throws: VIAProtocolError (unsupported command, a reply that never matches), VIATransportError.
    @discardableResult
    package func perform(_ command: VIACommand) async throws -> VIAReply {
        try await transport.send(try command.report())
        var mismatch: VIAProtocolError?
        for _ in 0...staleReplyLimit {
            let reply: VIAReport
            do {
                reply = try await transport.receive()
            } catch VIATransportError.timedOut(let milliseconds) {
                throw mismatch ?? VIATransportError.timedOut(milliseconds: milliseconds)
            }
            let decoded = Result { () throws(VIAProtocolError) in try command.decodeReply(reply) }
            switch decoded {
            case .success(let value):
                return value
            case .failure(let error):
                guard case .echoMismatch = error else { throw error }
                mismatch = error
            }
        }
        throw mismatch ?? VIAProtocolError.echoMismatch(command: command.id, reply: VIAReport(padding: []))
    }

    // MARK: Keyboard information

    /// The VIA protocol version (0x000B for current QMK).
    package func protocolVersion() async throws -> UInt16 {
        guard case .protocolVersion(let version) = try await perform(.getProtocolVersion) else { throw unexpected() }
        return version
    }

    /// A `get_keyboard_value` as a u32.
    package func keyboardValue(_ id: VIAKeyboardValueID) async throws -> UInt32 {
        guard case .keyboardValue(_, let value) = try await perform(.getKeyboardValue(id)) else { throw unexpected() }
        return value
    }

    /// The firmware version the keyboard's maker compiled in (`VIA_FIRMWARE_VERSION`, often 0).
    package func firmwareVersion() async throws -> UInt32 {
        try await keyboardValue(.firmwareVersion)
    }

    /// The number of dynamic keymap layers.
    package func layerCount() async throws -> Int {
        guard case .layerCount(let count) = try await perform(.getLayerCount) else { throw unexpected() }
        return Int(count)
    }

    // MARK: Keymap

    /// The keycode at one position.
    package func keycode(at position: VIAKeyPosition) async throws -> UInt16 {
        let command = VIACommand.getKeycode(layer: position.layer, row: position.row, column: position.column)
        guard case .keycode(let keycode) = try await perform(command) else { throw unexpected() }
        return keycode
    }

    /// Reads the whole keymap through the bulk buffer, 28 bytes (14 keycodes) per report.
    /// - Parameters:
    ///   - rows: matrix rows, from the keyboard's definition (VIA does not report them).
    ///   - columns: matrix columns, from the keyboard's definition.
    ///   - layers: the layer count; nil asks the keyboard.
    package func readKeymap(rows: Int, columns: Int, layers: Int? = nil) async throws -> VIAKeymap {
        let layerCount: Int
        if let layers {
            layerCount = layers
        } else {
            layerCount = try await self.layerCount()
        }
        let empty = try VIAKeymap(layers: layerCount, rows: rows, columns: columns)
        let bytes = try await readBuffer(size: empty.keycodes.count * 2) { .keymapGetBuffer(offset: $0, length: $1) }
        return try VIAKeymap(bufferBytes: bytes, layers: layerCount, rows: rows, columns: columns)
    }

    /// Writes each change with `dynamic_keymap_set_keycode`, one report per change, in order.
    /// - Returns: the number of reports sent.
    @discardableResult
    package func writeKeycodes(_ changes: [VIAKeycodeChange]) async throws -> Int {
        for change in changes {
            let position = change.position
            try await perform(
                .setKeycode(layer: position.layer, row: position.row, column: position.column, keycode: change.keycode))
        }
        return changes.count
    }

    /// Turns the keyboard's keymap `old` into `keymap`, writing only what differs (see `VIAKeymap.writeCommands`).
    /// - Returns: the number of reports sent (0 when nothing differs).
    @discardableResult
    package func writeKeymap(_ keymap: VIAKeymap, replacing old: VIAKeymap) async throws -> Int {
        let commands = try keymap.writeCommands(replacing: old)
        for command in commands {
            try await perform(command)
        }
        return commands.count
    }

    /// Restores the keymap compiled into the firmware.
    package func resetKeymap() async throws {
        try await perform(.resetKeymap)
    }

    // MARK: Buffers

    /// Reads `size` bytes of a buffer in chunks of at most 28 bytes.
    func readBuffer(size: Int, command: (UInt16, UInt8) -> VIACommand) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while bytes.count < size {
            let length = min(VIACommand.maximumChunkLength, size - bytes.count)
            let chunkCommand = command(UInt16(truncatingIfNeeded: bytes.count), UInt8(length))
            guard case .buffer(let chunk) = try await perform(chunkCommand), chunk.count == length else {
                throw unexpected()
            }
            bytes += chunk
        }
        return bytes
    }

    func unexpected() -> VIAProtocolError {
        // decodeReply maps each command to one reply case, so this is unreachable unless the two disagree.
        .echoMismatch(command: .unhandled, reply: VIAReport(padding: []))
    }
}
