import KeyboardLinkBlueZ
import KeyboardLinkKeymap

/// The ZMK Studio driver: keymap reads and staged writes over the Studio RPC, key positions in the layout's key
/// order (position i is the layout's i-th key), behaviours found by display name.
public actor StudioDriver: KeyboardDriver {
    /// The ZMK Studio GATT service.
    public static let serviceUUID = BluetoothUUID(high: 0x0000_0000_0196_6107, low: 0xC967_C5CF_B1C2_482A)
    /// Its RPC characteristic: request frames are written to it, answers come back as indications.
    public static let characteristicUUID = BluetoothUUID(high: 0x0000_0001_0196_6107, low: 0xC967_C5CF_B1C2_482A)

    public nonisolated let kind = DriverKind.zmkStudio
    /// The RPC link.
    public let link: StudioDriverLink
    private let onClose: @Sendable () async -> Void
    private var bindings: StudioDriverBindings?
    private var layerIDs: [UInt32] = []

    /// Creates a driver over a link; `onClose` releases the transport.
    public init(link: StudioDriverLink, onClose: @escaping @Sendable () async -> Void = {}) {
        self.link = link
        self.onClose = onClose
    }

    public func identify() async throws(DriverError) -> DriverIdentity {
        let info = try await call(.core(.getDeviceInfo), expecting: "device information") { payload in
            if case .core(.deviceInfo(let info)) = payload { return info }
            return nil
        }
        let state = try await call(.core(.getLockState), expecting: "the lock state") { payload in
            if case .core(.lockState(let state)) = payload { return state }
            return nil
        }
        var layers = 0
        var keys = 0
        if state == .unlocked {
            let keymap = try await fetchKeymap()
            layers = keymap.layers.count
            keys = keymap.layers.first?.bindings.count ?? 0
        }
        return DriverIdentity(
            name: info.name,
            capabilities: DriverCapabilities(
                layers: layers, keys: keys, macroBufferSize: 0, runtimeMacros: false, stagesChanges: true))
    }

    public func readKeymap(layout: PhysicalLayout) async throws(DriverError) -> DeviceKeymap {
        let table = try await behaviorTable()
        let keymap = try await fetchKeymap()
        var layers: [[KeyName: DeviceKeymap.Binding]] = []
        for layer in keymap.layers {
            guard layer.bindings.count == layout.keys.count else {
                throw .notSupported(
                    "the keyboard has \(layer.bindings.count) keys per layer, layout \(layout.id.rawValue) has "
                        + "\(layout.keys.count); choose the layout that matches the firmware")
            }
            var bindings: [KeyName: DeviceKeymap.Binding] = [:]
            for (key, binding) in zip(layout.keys, layer.bindings) {
                bindings[key.name] = table.decode(binding)
            }
            layers.append(bindings)
        }
        return DeviceKeymap(layers: layers, addableLayers: Int(clamping: keymap.availableLayers))
    }

    public func check(_ action: KeyAction) async throws(DriverError) {
        _ = try await behaviorTable().encode(action)
    }

    public func actionSupport() async -> DriverActionSupport? {
        bindings.map { .zmkStudio($0) }
    }

    public func write(_ write: DriverKeyWrite, layout: PhysicalLayout) async throws(DriverError) {
        let binding = try await behaviorTable().encode(write.action)
        if layerIDs.isEmpty { _ = try await fetchKeymap() }
        guard layerIDs.indices.contains(write.layer) else {
            throw .notSupported("the keyboard has \(layerIDs.count) layers, layer \(write.layer) does not exist")
        }
        guard let position = layout.keys.firstIndex(where: { $0.name == write.key }),
            let signed = Int32(exactly: position)
        else { throw .failed("key \(write.key) is not on layout \(layout.id.rawValue)") }
        let request = StudioSetLayerBindingRequest(
            layerID: layerIDs[write.layer], keyPosition: signed, binding: binding)
        let result = try await call(.keymap(.setLayerBinding(request)), expecting: "a binding result") { payload in
            if case .keymap(.setLayerBinding(let result)) = payload { return result }
            return nil
        }
        guard result == .ok else {
            throw .failed(
                "the keyboard refused \(write.action.formatted(.zmk)) for \(write.key) on layer \(write.layer): "
                    + "\(result)")
        }
    }

    /// Sends `add_layer` `count` times; ZMK appends each layer after the last one (the first layer id not in use)
    /// and stages it until `save_changes`.
    public func addLayers(_ count: Int) async throws(DriverError) {
        for added in 0..<max(0, count) {
            let result = try await call(.keymap(.addLayer), expecting: "an add-layer result") { payload in
                if case .keymap(.addLayer(let result)) = payload { return result }
                return nil
            }
            switch result {
            case .ok:
                break
            case .failed(let error):
                let reason = "the keyboard added \(added) of the \(count) layer(s) needed, then answered: \(error)"
                throw error == .noSpace ? .notSupported(reason) : .failed(reason)
            }
        }
        // The ids of the added layers are re-read with the keymap: they are the firmware's to choose.
        _ = try await fetchKeymap()
    }

    public func save() async throws(DriverError) {
        let result = try await call(.keymap(.saveChanges), expecting: "a save result") { payload in
            if case .keymap(.saveChanges(let result)) = payload { return result }
            return nil
        }
        guard result == .ok else {
            throw .failed("the keyboard could not save the keymap: \(result); its changes were kept unsaved")
        }
    }

    public func rollback(previous: DeviceKeymap, written: [DriverKeyWrite], layout: PhysicalLayout)
        async throws(DriverError)
    {
        let discarded = try await call(.keymap(.discardChanges), expecting: "a discard result") { payload in
            if case .keymap(.discardChanges(let done)) = payload { return done }
            return nil
        }
        guard discarded else { throw .failed("the keyboard did not discard its unsaved changes") }
    }

    public func waitUntilUnlocked(timeout: Duration) async -> Bool {
        await link.waitUntilUnlocked(timeout: timeout)
    }

    public func close() async {
        await onClose()
    }

    // MARK: Internals

    /// The behaviours, listed once (`list_all_behaviors`, then each one's details).
    private func behaviorTable() async throws(DriverError) -> StudioDriverBindings {
        if let bindings { return bindings }
        let ids = try await call(.behaviors(.listAllBehaviors), expecting: "the behaviour list") { payload in
            if case .behaviors(.behaviorIDs(let ids)) = payload { return ids }
            return nil
        }
        var details: [StudioBehaviorDetails] = []
        for id in ids {
            details.append(
                try await call(.behaviors(.getBehaviorDetails(behaviorID: id)), expecting: "behaviour details") {
                    payload in
                    if case .behaviors(.behaviorDetails(let details)) = payload { return details }
                    return nil
                })
        }
        let table = StudioDriverBindings(behaviors: details)
        bindings = table
        return table
    }

    private func fetchKeymap() async throws(DriverError) -> StudioKeymap {
        let keymap = try await call(.keymap(.getKeymap), expecting: "the keymap") { payload in
            if case .keymap(.keymap(let keymap)) = payload { return keymap }
            return nil
        }
        layerIDs = keymap.layers.map(\.id)
        return keymap
    }

    /// One call, its answer picked by `extract`; firmware errors become driver errors.
    private func call<Answer: Sendable>(
        _ subsystem: StudioRequest.Subsystem, expecting what: String,
        _ extract: @Sendable (StudioRequestResponse.Payload) -> Answer?
    ) async throws(DriverError) -> Answer {
        let payload = try await link.call(subsystem)
        if let answer = extract(payload) { return answer }
        if case .meta(.simpleError(.unlockRequired)) = payload {
            throw .locked(
                "the keyboard is locked: press the key bound to &studio_unlock on it, then retry")
        }
        if case .meta(.simpleError(let error)) = payload {
            throw .failed("the keyboard answered an error where \(what) was expected: \(error)")
        }
        throw .failed(
            "ZMK Studio answered with \(payload.summary) where \(what) was expected; the firmware may be "
                + "incompatible, update it or kblink")
    }
}
