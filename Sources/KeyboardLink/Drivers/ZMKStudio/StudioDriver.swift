import KeyboardLinkBlueZ
import KeyboardLinkKeymap

/// The ZMK Studio driver: keymap reads and staged writes over the Studio RPC, behaviours found by display name.
///
/// Key positions are those of the firmware's active physical layout (`get_physical_layouts`): when each of its keys
/// sits where a key of kblink's layout sits (same left and top edge), position i is the key at the place of the
/// active layout's i-th key, and keys of kblink's layout the active one does not place are neither read nor
/// written; otherwise position i is the layout's i-th key.
package actor StudioDriver: KeyboardDriver {
    /// The ZMK Studio GATT service.
    package static let serviceUUID = BluetoothUUID(high: 0x0000_0000_0196_6107, low: 0xC967_C5CF_B1C2_482A)
    /// Its RPC characteristic: request frames are written to it, answers come back as indications.
    package static let characteristicUUID = BluetoothUUID(high: 0x0000_0001_0196_6107, low: 0xC967_C5CF_B1C2_482A)

    package nonisolated let kind = DriverKind.zmkStudio
    /// The RPC link.
    package let link: StudioDriverLink
    private let onClose: @Sendable () async -> Void
    private var bindings: StudioDriverBindings?
    private var layerIDs: [UInt32] = []
    private var maxLayerNameLength = 0
    /// The firmware's physical layouts, read once (nil until then, and again after a switch).
    private var studioLayouts: StudioPhysicalLayouts?
    /// Per key position, the key of kblink's layout there (nil: none), for the layout they were worked out on.
    private var positions: (layout: LayoutID, keys: [KeyName?], placed: Bool)?

    /// Creates a driver over a link; `onClose` releases the transport.
    package init(link: StudioDriverLink, onClose: @escaping @Sendable () async -> Void = {}) {
        self.link = link
        self.onClose = onClose
    }

    package func identify() async throws(DriverError) -> DriverIdentity {
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

    /// Asks the keyboard whether it is locked (`get_lock_state`, allowed while locked).
    /// - Throws: `DriverError` when it does not answer.
    package func readLockState() async throws(DriverError) -> StudioLockState {
        try await call(.core(.getLockState), expecting: "the lock state") { payload in
            if case .core(.lockState(let state)) = payload { return state }
            return nil
        }
    }

    package func readKeymap(layout: PhysicalLayout) async throws(DriverError) -> DeviceKeymap {
        let table = try await behaviorTable()
        let keymap = try await fetchKeymap()
        let positions = try await positionKeys(on: layout)
        var layers: [[KeyName: DeviceKeymap.Binding]] = []
        for layer in keymap.layers {
            // ZMK answers as many bindings per layer as its keymap has keys, whatever the active layout places.
            guard
                positions.placed
                    ? layer.bindings.count >= positions.keys.count : layer.bindings.count == layout.keys.count
            else {
                throw .notSupported(
                    "the keyboard has \(layer.bindings.count) keys per layer, layout \(layout.id.rawValue) has "
                        + "\(layout.keys.count); choose the layout that matches the firmware")
            }
            var bindings: [KeyName: DeviceKeymap.Binding] = [:]
            for (key, binding) in zip(positions.keys, layer.bindings) {
                guard let key else { continue }
                bindings[key] = table.decode(binding)
            }
            layers.append(bindings)
        }
        return DeviceKeymap(
            layers: layers, addableLayers: Int(clamping: keymap.availableLayers),
            layerNames: keymap.layers.map(\.name), removesLayers: true)
    }

    package func check(_ action: KeyAction) async throws(DriverError) {
        _ = try await behaviorTable().encode(action)
    }

    package func actionSupport() async -> DriverActionSupport? {
        bindings.map { .zmkStudio($0) }
    }

    package func write(_ write: DriverKeyWrite, layout: PhysicalLayout) async throws(DriverError) {
        let binding = try await behaviorTable().encode(write.action)
        if layerIDs.isEmpty { _ = try await fetchKeymap() }
        guard layerIDs.indices.contains(write.layer) else {
            throw .notSupported("the keyboard has \(layerIDs.count) layers, layer \(write.layer) does not exist")
        }
        let positions = try await positionKeys(on: layout)
        guard let position = positions.keys.firstIndex(of: write.key), let signed = Int32(exactly: position) else {
            guard layout.contains(write.key), positions.placed else {
                throw .failed("key \(write.key) is not on layout \(layout.id.rawValue)")
            }
            throw .notSupported(
                "key \(write.key) is not on the keyboard's active physical layout\(activeLayoutName); switch with "
                    + "'kblink keymap physical-layout DEVICE set INDEX' or leave that key as it is")
        }
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
    package func addLayers(_ count: Int) async throws(DriverError) {
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

    /// Sends `remove_layer` for the last layer, `count` times (ZMK stages each until `save_changes`).
    package func removeLayers(_ count: Int) async throws(DriverError) {
        for removed in 0..<max(0, count) {
            if layerIDs.isEmpty { _ = try await fetchKeymap() }
            guard layerIDs.count > 1 else {
                throw .notSupported("the keyboard has only layer 0 left, which stays")
            }
            let index = UInt32(layerIDs.count - 1)
            let result = try await call(.keymap(.removeLayer(index: index)), expecting: "a remove-layer result") {
                payload in
                if case .keymap(.removeLayer(let result)) = payload { return result }
                return nil
            }
            guard case .ok = result else {
                throw .failed(
                    "the keyboard removed \(removed) of the \(count) layer(s) to remove, then refused layer \(index): "
                        + Self.layerError(result, invalid: "no such layer index"))
            }
            layerIDs.removeLast()
        }
    }

    /// Sends `move_layer`: the layer at `from` goes to `to` (ZMK answers the keymap after the move).
    package func moveLayer(from: Int, to: Int) async throws(DriverError) {
        guard let start = UInt32(exactly: from), let destination = UInt32(exactly: to) else {
            throw .failed("layer \(from) or \(to) is not a layer index")
        }
        let result = try await call(.keymap(.moveLayer(from: start, to: destination)), expecting: "a move result") {
            payload in
            if case .keymap(.moveLayer(let result)) = payload { return result }
            return nil
        }
        guard case .ok(let keymap) = result else {
            // ZMK answers every failed move with GENERIC.
            throw .failed("the keyboard did not move layer \(from) to \(to): " + Self.layerError(result, invalid: ""))
        }
        layerIDs = keymap.layers.map(\.id)
    }

    /// Sends `restore_layer`: a layer removed since the last save (by its id) comes back at `index`.
    package func restoreLayer(id: UInt32, at index: Int) async throws(DriverError) {
        guard let at = UInt32(exactly: index) else { throw .failed("\(index) is not a layer index") }
        let result = try await call(.keymap(.restoreLayer(id: id, at: at)), expecting: "a restore result") {
            payload in
            if case .keymap(.restoreLayer(let result)) = payload { return result }
            return nil
        }
        guard case .ok = result else {
            throw .failed(
                "the keyboard did not restore layer id \(id) at \(index): "
                    + Self.layerError(result, invalid: "no removed layer has that id"))
        }
        _ = try await fetchKeymap()
    }

    /// Sends `set_layer_props` with the layer's id and name.
    package func setLayerName(_ name: LayerName, layer: Int) async throws(DriverError) {
        if layerIDs.isEmpty { _ = try await fetchKeymap() }
        guard layerIDs.indices.contains(layer) else {
            throw .notSupported("the keyboard has \(layerIDs.count) layers, layer \(layer) does not exist")
        }
        let request = StudioSetLayerPropsRequest(layerID: layerIDs[layer], name: name.rawValue)
        let result = try await call(.keymap(.setLayerProps(request)), expecting: "a layer-props result") { payload in
            if case .keymap(.setLayerProps(let result)) = payload { return result }
            return nil
        }
        switch result {
        case .ok: return
        case .generic:
            throw .notSupported(
                "the keyboard did not take the name '\(name)' for layer \(layer) (its firmware stores names of at "
                    + "most \(maxLayerNameLength) bytes; choose a shorter one)")
        default: throw .failed("the keyboard did not take the name of layer \(layer): \(result)")
        }
    }

    package func physicalLayouts() async throws(DriverError) -> [DevicePhysicalLayout] {
        let layouts = try await fetchPhysicalLayouts()
        return layouts.layouts.enumerated().map { index, layout in
            DevicePhysicalLayout(
                name: Self.layoutName(layout.name), keys: layout.keys.count,
                active: index == Int(layouts.activeLayoutIndex))
        }
    }

    /// A physical layout's name as the keyboard gave it, when it is one a layer could have (at most 64 bytes, no
    /// control or format characters: ``LayerName``); empty otherwise. The keyboard chooses it: a NUL would make
    /// kblinkd's answer unsendable, an escape or newline would reach a terminal.
    static func layoutName(_ name: String) -> String {
        (try? LayerName(name))?.rawValue ?? ""
    }

    /// Sends `set_active_physical_layout`. ZMK reads the index as one byte and answers `GENERIC` for any it has
    /// no layout at, so the index is checked against `get_physical_layouts` first.
    package func setActivePhysicalLayout(_ index: Int) async throws(DriverError) {
        let layouts = try await fetchPhysicalLayouts()
        guard layouts.layouts.indices.contains(index), let wire = UInt32(exactly: index) else {
            let names = layouts.layouts.enumerated().map { "\($0) '\(Self.layoutName($1.name))'" }
                .joined(separator: ", ")
            throw .notSupported(
                "the keyboard has no physical layout \(index); it has \(layouts.layouts.count): \(names)")
        }
        let result = try await call(.keymap(.setActivePhysicalLayout(wire)), expecting: "a layout switch result") {
            payload in
            if case .keymap(.setActivePhysicalLayout(let result)) = payload { return result }
            return nil
        }
        studioLayouts = nil
        positions = nil
        guard case .ok(let keymap) = result else {
            throw .failed(
                "the keyboard did not switch to physical layout \(index): "
                    + Self.layerError(result, invalid: "no such layout index"))
        }
        layerIDs = keymap.layers.map(\.id)
    }

    /// The firmware's physical layouts, asked once.
    private func fetchPhysicalLayouts() async throws(DriverError) -> StudioPhysicalLayouts {
        if let studioLayouts { return studioLayouts }
        let layouts = try await call(.keymap(.getPhysicalLayouts), expecting: "the physical layouts") { payload in
            if case .keymap(.physicalLayouts(let layouts)) = payload { return layouts }
            return nil
        }
        studioLayouts = layouts
        return layouts
    }

    /// ` 'Compact'`: the active physical layout's name, as read; empty when not read or unnamed.
    private var activeLayoutName: String {
        guard let studioLayouts, studioLayouts.layouts.indices.contains(Int(studioLayouts.activeLayoutIndex)) else {
            return ""
        }
        let name = Self.layoutName(studioLayouts.layouts[Int(studioLayouts.activeLayoutIndex)].name)
        return name.isEmpty ? "" : " '\(name)'"
    }

    /// Per key position, the key of `layout` there (see the type's comment), worked out once per layout.
    private func positionKeys(on layout: PhysicalLayout) async throws(DriverError) -> (keys: [KeyName?], placed: Bool) {
        if let positions, positions.layout == layout.id { return (positions.keys, positions.placed) }
        var placed: [KeyName?]?
        do throws(DriverError) {
            let layouts = try await fetchPhysicalLayouts()
            let active = Int(layouts.activeLayoutIndex)
            if layouts.layouts.indices.contains(active) { placed = Self.placed(layouts.layouts[active], on: layout) }
        } catch .locked(let message) {
            throw .locked(message)
        } catch {
            // A firmware that does not describe its layouts: positions in the layout's key order.
            placed = nil
        }
        let keys = placed ?? layout.keys.map { Optional($0.name) }
        positions = (layout.id, keys, placed != nil)
        return (keys, placed != nil)
    }

    /// The keys of `layout` at the places of `studio`'s keys, in its order; nil unless every one of its keys sits
    /// where a distinct key of `layout` does.
    static func placed(_ studio: StudioPhysicalLayout, on layout: PhysicalLayout) -> [KeyName?]? {
        struct Place: Hashable {
            var x: Int32
            var y: Int32
        }
        func hundredths(_ value: Double) -> Int32 { Int32(clamping: Int((value * 100).rounded())) }
        var byPlace: [Place: KeyName] = [:]
        for key in layout.keys { byPlace[Place(x: hundredths(key.frame.x), y: hundredths(key.frame.y))] = key.name }
        var keys: [KeyName?] = []
        var used = Set<KeyName>()
        for key in studio.keys {
            guard let name = byPlace[Place(x: key.x, y: key.y)], used.insert(name).inserted else { return nil }
            keys.append(name)
        }
        return keys.isEmpty ? nil : keys
    }

    /// What a failed layer request's error code says.
    private static func layerError<Success>(_ result: StudioLayerEditResult<Success>, invalid: String) -> String {
        guard case .failed(let code) = result else { return "no error" }
        switch code {
        case .generic: return "the firmware did not say why (GENERIC)"
        case .invalidFirst where !invalid.isEmpty: return invalid
        default: return code.description
        }
    }

    package func save() async throws(DriverError) {
        let result = try await call(.keymap(.saveChanges), expecting: "a save result") { payload in
            if case .keymap(.saveChanges(let result)) = payload { return result }
            return nil
        }
        guard result == .ok else {
            throw .failed("the keyboard could not save the keymap: \(result); its changes were kept unsaved")
        }
    }

    package func rollback(previous: DeviceKeymap, written: [DriverKeyWrite], layout: PhysicalLayout)
        async throws(DriverError)
    {
        let discarded = try await call(.keymap(.discardChanges), expecting: "a discard result") { payload in
            if case .keymap(.discardChanges(let done)) = payload { return done }
            return nil
        }
        guard discarded else { throw .failed("the keyboard did not discard its unsaved changes") }
    }

    package func waitUntilUnlocked(timeout: Duration) async -> Bool {
        await link.waitUntilUnlocked(timeout: timeout)
    }

    package func close() async {
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
        maxLayerNameLength = Int(keymap.maxLayerNameLength)
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
