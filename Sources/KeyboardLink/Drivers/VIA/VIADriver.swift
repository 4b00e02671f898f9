import KeyboardLinkKeymap

/// The VIA driver: the keymap through VIA's dynamic keymap commands over a `VIATransport` (a hidraw node, or a
/// socketpair in tests). Keys are found by their layout's matrix position; VIA writes go straight to EEPROM, so
/// there is nothing to save, and rolling back rewrites the previous keycodes and macro buffer. Macros live in the
/// keyboard's macro buffer (`VIAClient+Macros`); a key plays slot n with QMK's keycode `QK_MACRO_n` (0x7700 + n).
package actor VIADriver: KeyboardDriver {
    package nonisolated let kind = DriverKind.via
    private let client: VIAClient
    private let matrix: (rows: Int, columns: Int)?
    private let onClose: @Sendable () async -> Void
    /// The keymap as last read, with the writes the keyboard acknowledged since: bulk writes rewrite the unchanged
    /// keycodes between changed ones with these values.
    private var current: VIAKeymap?
    /// Writes of a report the keyboard did not acknowledge: it may or may not have taken them, so a rollback
    /// rewrites them too.
    private var uncertain: [DriverKeyWrite] = []

    /// Creates a driver.
    /// - Parameters:
    ///   - matrix: the firmware's matrix size; nil derives it from the layout (largest row and column plus one).
    ///   - onClose: releases the transport.
    package init(
        transport: any VIATransport, matrix: (rows: Int, columns: Int)? = nil,
        onClose: @escaping @Sendable () async -> Void = {}
    ) {
        client = VIAClient(transport: transport)
        self.matrix = matrix
        self.onClose = onClose
    }

    package func identify() async throws(DriverError) -> DriverIdentity {
        try await run("identify the keyboard") {
            let version = try await client.protocolVersion()
            guard version >= 0x0009 else {
                throw DriverError.notSupported(
                    "the keyboard speaks VIA protocol \(version), kblink needs 9 or later; update its firmware")
            }
            let layers = try await client.layerCount()
            let buffer = try await client.macroBufferSize()
            let slots = try await client.macroCount()
            return DriverIdentity(
                name: "VIA protocol \(version)",
                capabilities: DriverCapabilities(
                    layers: layers, keys: 0, macroBufferSize: buffer, macroSlots: slots, runtimeMacros: true,
                    stagesChanges: false))
        }
    }

    package func readKeymap(layout: PhysicalLayout) async throws(DriverError) -> DeviceKeymap {
        let (rows, columns) = geometry(layout)
        let keymap = try await run("read the keymap") { try await client.readKeymap(rows: rows, columns: columns) }
        current = keymap
        uncertain = []
        let macros = try await readMacros()
        var layers: [[KeyName: DeviceKeymap.Binding]] = []
        for layer in 0..<keymap.layers {
            var bindings: [KeyName: DeviceKeymap.Binding] = [:]
            for key in layout.keys {
                let position = try Self.position(key, layer: layer)
                guard let code = keymap.keycode(at: position) else {
                    throw .failed("key \(key.name) lies outside the keyboard's \(rows)x\(columns) matrix")
                }
                let slot = Int(code) - Int(KeyAction.qmkMacroBase)
                bindings[key.name] =
                    macros.slots.indices.contains(slot) ? .macroSlot(slot) : .action(KeyAction(qmkKeycode: code))
            }
            layers.append(bindings)
        }
        return DeviceKeymap(layers: layers, macros: macros)
    }

    package func check(_ action: KeyAction) async throws(DriverError) {
        try Self.checkAction(action)
    }

    /// VIA's `check(_:)`, which needs nothing from the keyboard.
    static func checkAction(_ action: KeyAction) throws(DriverError) {
        // A macro is written with the slot `DriverPush` gives it; `check(_:on:)` checks that the slots fit.
        if action.referencedMacro != nil { return }
        _ = try Self.keycode(action)
    }

    package func actionSupport() async -> DriverActionSupport? { .via }

    package func write(_ write: DriverKeyWrite, layout: PhysicalLayout) async throws(DriverError) {
        let code: UInt16
        if let slot = write.macroSlot, write.action.referencedMacro != nil {
            code = try Self.macroKeycode(slot: slot)
        } else {
            code = try Self.keycode(write.action)
        }
        try await writeKeycode(code, key: write.key, layer: write.layer, layout: layout)
    }

    /// Writes the keycodes in as few reports as `VIAKeymap.writeCommands` allows: changed keycodes less than 14 apart
    /// share one `dynamic_keymap_set_buffer` (the keycodes between them rewritten with their current value), a
    /// lone one takes a `dynamic_keymap_set_keycode`.
    package func write(
        _ writes: [DriverKeyWrite], layout: PhysicalLayout, progress: @Sendable (Int) async -> Void
    ) async throws(DriverError) {
        let old = try await keymapNow(layout)
        var target = old
        var indices: [Int] = []
        for write in writes {
            let position = try position(of: write.key, layer: write.layer, layout: layout)
            guard old.contains(position) else {
                throw .failed("key \(write.key) on layer \(write.layer) lies outside the keyboard's keymap")
            }
            try Self.set(try Self.keycode(write), at: position, in: &target)
            indices.append(old.index(of: position))
        }
        let commands: [VIACommand]
        do {
            commands = try target.writeCommands(replacing: old)
        } catch {
            throw .failed("cannot plan the keymap write: \(error)")
        }
        // Writes whose keycode the keyboard holds already count as taken from the start.
        var pending = Set(indices.indices.filter { target.keycodes[indices[$0]] != old.keycodes[indices[$0]] })
        var written = old
        for command in commands {
            let range = Self.keymapRange(of: command, in: old)
            do {
                _ = try await run("write the keymap") { try await client.perform(command) }
            } catch {
                // The caller rolls back the reported prefix; the rest that may be on the keyboard (taken past the
                // first pending write, or in the report that failed) is left to `rollback` here.
                let prefix = pending.min() ?? writes.count
                uncertain += (prefix..<writes.count).filter { !pending.contains($0) || range.contains(indices[$0]) }
                    .map { writes[$0] }
                current = written
                throw error
            }
            for index in range { try Self.set(target.keycodes[index], at: old.position(ofIndex: index), in: &written) }
            pending = pending.filter { !range.contains(indices[$0]) }
            current = written
            // Progress counts writes in order (the caller rolls back that prefix): the first pending one bounds it.
            await progress(pending.min() ?? writes.count)
        }
    }

    package func check(_ macros: DriverMacroWrite, on device: DeviceMacros) async throws(DriverError) {
        _ = try Self.buffer(macros, capacity: device.capacity)
    }

    package func write(_ macros: DriverMacroWrite, replacing device: DeviceMacros) async throws(DriverError) {
        let contents = try Self.buffer(macros, capacity: device.capacity)
        try await writeMacroBuffer(contents, capacity: device.capacity, replacing: device.storage)
    }

    package func restore(_ previous: DeviceMacros) async throws(DriverError) {
        // The buffer may hold anything after a write cut short: read it so that only what differs is sent.
        let current = try await run("read the macro buffer") {
            try await client.readBuffer(size: previous.capacity) { .macroGetBuffer(offset: $0, length: $1) }
        }
        var contents = previous.storage
        while contents.last == 0 { contents.removeLast() }
        guard contents.count < previous.capacity else {
            throw .failed("the macro buffer was being written before the push (its last byte was not 0)")
        }
        try await writeMacroBuffer(contents, capacity: previous.capacity, replacing: current)
    }

    package func save() async throws(DriverError) {}

    package func rollback(previous: DeviceKeymap, written: [DriverKeyWrite], layout: PhysicalLayout)
        async throws(DriverError)
    {
        let unsure = uncertain
        uncertain = []
        let old = try await keymapNow(layout)
        // What the keyboard should hold again; keycodes it may or may not have taken are marked as differing so
        // that they are rewritten.
        var target = old
        var believed = old
        for (index, write) in (written + unsure).enumerated() {
            let code: UInt16
            switch previous.binding(layer: write.layer, key: write.key) {
            case .action(let action)?: code = try Self.keycode(action)
            case .macroSlot(let slot)?: code = try Self.macroKeycode(slot: slot)
            default: throw .failed("the previous binding of \(write.key) on layer \(write.layer) is unknown")
            }
            let position = try position(of: write.key, layer: write.layer, layout: layout)
            try Self.set(code, at: position, in: &target)
            if index >= written.count { try Self.set(~code, at: position, in: &believed) }
        }
        let commands: [VIACommand]
        do {
            commands = try target.writeCommands(replacing: believed)
        } catch {
            throw .failed("cannot plan the rollback: \(error)")
        }
        for command in commands {
            _ = try await run("roll back the keymap") { try await client.perform(command) }
        }
        current = target
    }

    package func waitUntilUnlocked(timeout: Duration) async -> Bool { true }

    /// The `Firmware` property keys VIA can tell: `VIAProtocolVersion` (`0x` and 4 lowercase hex digits) and
    /// `VIAFirmwareVersion` (`0x` and 8), each left out when the keyboard does not answer it.
    package func firmwareProperties() async -> [String: String] {
        var properties: [String: String] = [:]
        if let version = try? await client.protocolVersion() {
            properties[Self.protocolVersionKey] = Self.hex(UInt32(version), digits: 4)
        }
        if let version = try? await client.firmwareVersion() {
            properties[Self.firmwareVersionKey] = Self.hex(version, digits: 8)
        }
        return properties
    }

    /// The `Firmware` key of the VIA protocol version.
    package static let protocolVersionKey = "VIAProtocolVersion"
    /// The `Firmware` key of the firmware version VIA reports (`id_firmware_version`).
    package static let firmwareVersionKey = "VIAFirmwareVersion"

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    package func close() async {
        await onClose()
    }

    // MARK: Internals

    private func writeKeycode(_ code: UInt16, key name: KeyName, layer: Int, layout: PhysicalLayout)
        async throws(DriverError)
    {
        guard let key = layout.keys.first(where: { $0.name == name }) else {
            throw .failed("key \(name) is not on layout \(layout.id.rawValue)")
        }
        let position = try Self.position(key, layer: layer)
        _ = try await run("write \(name) on layer \(layer)") {
            try await client.writeKeycodes([VIAKeycodeChange(position: position, keycode: code)])
        }
        if var keymap = current, keymap.contains(position) {
            try Self.set(code, at: position, in: &keymap)
            current = keymap
        }
    }

    /// The keymap as the driver last knew it, read when it was never read (or read on another layout's matrix).
    private func keymapNow(_ layout: PhysicalLayout) async throws(DriverError) -> VIAKeymap {
        let (rows, columns) = geometry(layout)
        if let current, current.rows == rows, current.columns == columns { return current }
        let keymap = try await run("read the keymap") { try await client.readKeymap(rows: rows, columns: columns) }
        current = keymap
        return keymap
    }

    /// The keymap indices a keymap write covers.
    private static func keymapRange(of command: VIACommand, in keymap: VIAKeymap) -> ClosedRange<Int> {
        switch command {
        case let .setKeycode(layer, row, column, _):
            let index = keymap.index(of: VIAKeyPosition(layer: layer, row: row, column: column))
            return index...index
        case let .keymapSetBuffer(offset, data):
            let start = Int(offset) / 2
            return start...(start + max(data.count / 2, 1) - 1)
        default:
            return 0...0
        }
    }

    private static func set(_ code: UInt16, at position: VIAKeyPosition, in keymap: inout VIAKeymap)
        throws(DriverError)
    {
        do {
            try keymap.setKeycode(code, at: position)
        } catch {
            throw .failed("cannot place keycode \(code) at \(position): \(error)")
        }
    }

    /// The keycode a write puts on the keyboard.
    private static func keycode(_ write: DriverKeyWrite) throws(DriverError) -> UInt16 {
        if let slot = write.macroSlot, write.action.referencedMacro != nil { return try macroKeycode(slot: slot) }
        return try keycode(write.action)
    }

    /// The VIA position of a key on a layer.
    private func position(of name: KeyName, layer: Int, layout: PhysicalLayout) throws(DriverError) -> VIAKeyPosition {
        guard let key = layout.keys.first(where: { $0.name == name }) else {
            throw .failed("key \(name) is not on layout \(layout.id.rawValue)")
        }
        return try Self.position(key, layer: layer)
    }

    /// Reads the macro slots: their count, the buffer's size and the buffer, decoded slot by slot. Firmware built
    /// without dynamic macros (which answers the macro commands with 0xFF) has no slots.
    private func readMacros() async throws(DriverError) -> DeviceMacros {
        let (count, capacity, storage) = try await run("read the macro buffer") {
            () async throws -> (Int, Int, [UInt8]) in
            let count: Int
            do {
                count = try await client.macroCount()
            } catch VIAProtocolError.unsupportedCommand(_) {
                return (0, 0, [])
            }
            let capacity = try await client.macroBufferSize()
            let storage = try await client.readBuffer(size: capacity) { .macroGetBuffer(offset: $0, length: $1) }
            return (count, capacity, storage)
        }
        return DeviceMacros(slots: Self.decodeSlots(storage, count: count), capacity: capacity, storage: storage)
    }

    /// The slots of a macro buffer as QMK plays them: the n-th NUL-terminated run is slot n; slots past the last
    /// NUL are empty; while the buffer's last byte is not 0 (a write in progress) QMK plays nothing.
    static func decodeSlots(_ buffer: [UInt8], count: Int) -> [DeviceMacros.Slot] {
        guard buffer.last == 0 else {
            let busy = DeviceMacros.Slot.other("half written (the macro buffer's last byte is not 0)")
            return Array(repeating: busy, count: max(0, count))
        }
        var slots: [DeviceMacros.Slot] = []
        var start = 0
        for _ in 0..<max(0, count) {
            guard start < buffer.count, let end = buffer[start...].firstIndex(of: 0) else {
                slots.append(.empty)
                continue
            }
            if end == start {
                slots.append(.empty)
            } else {
                do {
                    slots.append(.macro(try ViaMacroCodec.decode(buffer[start..<end])))
                } catch {
                    slots.append(.other("unreadable macro (\(error.description))"))
                }
            }
            start = end + 1
        }
        return slots
    }

    /// The macro buffer's contents for `macros`: each slot's bytes and a NUL, up to the last slot in use.
    /// - Throws: `DriverError.notSupported` when a macro cannot be encoded or they do not fit `capacity`, naming
    ///   each macro with its size.
    static func buffer(_ macros: DriverMacroWrite, capacity: Int) throws(DriverError) -> [UInt8] {
        var slots = macros.slots
        while let last = slots.last, last == nil { slots.removeLast() }
        var sizes: [(name: MacroName, bytes: Int)] = []
        var contents: [UInt8] = []
        for entry in slots {
            if let entry {
                do {
                    let bytes = try ViaMacroCodec.encode(entry.macro)
                    contents += bytes
                    sizes.append((entry.name, bytes.count + 1))
                } catch {
                    throw .notSupported("macro \(entry.name) cannot be written to a VIA keyboard: \(error.description)")
                }
            }
            contents.append(0)
        }
        guard contents.count > capacity else { return contents }
        let listed = sizes.sorted { $0.bytes > $1.bytes }.map { "\($0.name) (\($0.bytes) bytes)" }
        throw .notSupported(
            "the bound macros need \(contents.count) bytes of the keyboard's macro buffer and it holds \(capacity) "
                + "(\(contents.count - capacity) too many): \(listed.joined(separator: ", ")); shorten them or unbind "
                + "one from its keys; nothing was written")
    }

    /// Writes the macro buffer through `VIAClient.macroWriteCommands` (busy marker, differing chunks of at most
    /// 28 bytes, last byte cleared last).
    private func writeMacroBuffer(_ contents: [UInt8], capacity: Int, replacing old: [UInt8]) async throws(DriverError)
    {
        let commands: [VIACommand]
        do {
            commands = try VIAClient.macroWriteCommands(contents: contents, bufferSize: capacity, replacing: old)
        } catch {
            throw .notSupported("cannot write the macro buffer: \(error)")
        }
        _ = try await run("write the macro buffer") {
            for command in commands {
                try await client.perform(command)
            }
        }
    }

    private static func macroKeycode(slot: Int) throws(DriverError) -> UInt16 {
        guard (0..<128).contains(slot) else { throw .failed("macro slot \(slot) has no QMK keycode") }
        return KeyAction.qmkMacroBase + UInt16(slot)
    }

    private func geometry(_ layout: PhysicalLayout) -> (Int, Int) {
        if let matrix { return (matrix.rows, matrix.columns) }
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        return (rows, columns)
    }

    private static func position(_ key: PhysicalKey, layer: Int) throws(DriverError) -> VIAKeyPosition {
        guard let layer = UInt8(exactly: layer), let row = UInt8(exactly: key.matrix.row),
            let column = UInt8(exactly: key.matrix.column)
        else { throw .failed("key \(key.name) has no VIA position (layer \(layer), \(key.matrix))") }
        return VIAKeyPosition(layer: layer, row: row, column: column)
    }

    private static func keycode(_ action: KeyAction) throws(DriverError) -> UInt16 {
        if case .macro(let name) = action {
            throw .notSupported("macro \(name) has no slot among the keyboard's macros; push the whole profile")
        }
        do {
            return try action.qmkKeycode()
        } catch {
            throw .notSupported(error.description)
        }
    }

    /// Runs VIA operations, turning transport and protocol errors into driver errors.
    private func run<T: Sendable>(_ what: String, _ body: () async throws -> T) async throws(DriverError) -> T {
        do {
            return try await body()
        } catch let error as DriverError {
            throw error
        } catch let error as VIATransportError {
            throw .notConnected("cannot \(what): \(error); reconnect the keyboard and retry")
        } catch {
            throw .failed("cannot \(what): \(error)")
        }
    }
}
