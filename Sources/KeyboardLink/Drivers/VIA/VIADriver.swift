/// The VIA driver: the keymap through VIA's dynamic keymap commands over a `VIATransport` (a hidraw node, or a
/// socketpair in tests). Keys are found by their layout's matrix position; VIA writes go straight to EEPROM, so
/// there is nothing to save, and rolling back rewrites the previous keycodes.
public actor VIADriver: KeyboardDriver {
    public nonisolated let kind = DriverKind.via
    private let client: VIAClient
    private let matrix: (rows: Int, columns: Int)?
    private let onClose: @Sendable () async -> Void

    /// Creates a driver.
    /// - Parameters:
    ///   - matrix: the firmware's matrix size; nil derives it from the layout (largest row and column plus one).
    ///   - onClose: releases the transport.
    public init(
        transport: any VIATransport, matrix: (rows: Int, columns: Int)? = nil,
        onClose: @escaping @Sendable () async -> Void = {}
    ) {
        client = VIAClient(transport: transport)
        self.matrix = matrix
        self.onClose = onClose
    }

    public func identify() async throws(DriverError) -> DriverIdentity {
        try await run("identify the keyboard") {
            let version = try await client.protocolVersion()
            guard version >= 0x0009 else {
                throw DriverError.notSupported(
                    "the keyboard speaks VIA protocol \(version), kblink needs 9 or later; update its firmware")
            }
            let layers = try await client.layerCount()
            let buffer = try await client.macroBufferSize()
            return DriverIdentity(
                name: "VIA protocol \(version)",
                capabilities: DriverCapabilities(
                    layers: layers, keys: 0, macroBufferSize: buffer, runtimeMacros: true, stagesChanges: false))
        }
    }

    public func readKeymap(layout: PhysicalLayout) async throws(DriverError) -> DeviceKeymap {
        let (rows, columns) = geometry(layout)
        let keymap = try await run("read the keymap") { try await client.readKeymap(rows: rows, columns: columns) }
        var layers: [[KeyName: DeviceKeymap.Binding]] = []
        for layer in 0..<keymap.layers {
            var bindings: [KeyName: DeviceKeymap.Binding] = [:]
            for key in layout.keys {
                let position = try Self.position(key, layer: layer)
                guard let code = keymap.keycode(at: position) else {
                    throw .failed("key \(key.name) lies outside the keyboard's \(rows)x\(columns) matrix")
                }
                bindings[key.name] = .action(KeyAction(qmkKeycode: code))
            }
            layers.append(bindings)
        }
        return DeviceKeymap(layers: layers)
    }

    public func check(_ action: KeyAction) async throws(DriverError) {
        _ = try Self.keycode(action)
    }

    public func write(_ write: DriverKeyWrite, layout: PhysicalLayout) async throws(DriverError) {
        let code = try Self.keycode(write.action)
        guard let key = layout.keys.first(where: { $0.name == write.key }) else {
            throw .failed("key \(write.key) is not on layout \(layout.id.rawValue)")
        }
        let position = try Self.position(key, layer: write.layer)
        _ = try await run("write \(write.key) on layer \(write.layer)") {
            try await client.writeKeycodes([VIAKeycodeChange(position: position, keycode: code)])
        }
    }

    public func save() async throws(DriverError) {}

    public func rollback(previous: DeviceKeymap, written: [DriverKeyWrite], layout: PhysicalLayout)
        async throws(DriverError)
    {
        for write in written.reversed() {
            guard case .action(let action) = previous.binding(layer: write.layer, key: write.key) else {
                throw .failed("the previous binding of \(write.key) on layer \(write.layer) is unknown")
            }
            try await self.write(DriverKeyWrite(layer: write.layer, key: write.key, action: action), layout: layout)
        }
    }

    public func waitUntilUnlocked(timeout: Duration) async -> Bool { true }

    public func close() async {
        await onClose()
    }

    // MARK: Internals

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
            throw .notSupported(
                "macro \(name) cannot be pushed over VIA yet (kblink does not write the macro buffer); "
                    + "bind another action to that key")
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
