import KeyboardLinkDrivers

/// A pure simulation of ZMK Studio's RPC side, for the simulator and tests: it consumes request payloads (or the
/// framed bytes a GATT characteristic carries) and produces responses and notifications like ZMK does.
///
/// Modelled on ZMK's `app/src/studio`: only `get_device_info`, `get_lock_state`, `list_all_behaviors` and `lock`
/// work while locked, the rest answer `UNLOCK_REQUIRED`; `set_layer_binding` stages an edit and raises
/// `unsaved_changes_status_changed(true)` before its answer; `save_changes` and `discard_changes` raise it with
/// false. `add_layer` appends a transparent layer while the firmware has one to spare (`available_layers` in
/// `get_keymap` counts them), stages it like an edit, and answers `ADD_LAYER_ERR_NO_SPACE` when none is left;
/// `discard_changes` drops staged layers, as ZMK reloads its saved layer order. Layers have ids apart from their
/// indices (at first equal): `add_layer` takes the lowest id not in use, `remove_layer` takes a layer out of the
/// order (its bindings kept for `restore_layer` until the next save or discard; `INVALID_INDEX` for an index
/// beyond the layers), `restore_layer` puts a removed layer back at an index (`INVALID_ID`, `INVALID_INDEX`),
/// `move_layer` answers the keymap after the move or, on any failure, only `GENERIC` (as ZMK does), and
/// `set_layer_props` names a layer by id (`INVALID_ID`; longer than `max_layer_name_length` is `GENERIC`; an empty
/// name answers OK and changes nothing, as in ZMK). Every one of them stages like a binding change.
///
/// Physical layouts as in ZMK's `physical_layouts.c`: the keymap is stored in the first (stock) layout's key
/// order; with another layout active, key position b is the stock key at the same `x` and `y` as that layout's
/// b-th key (a position no stock key matches holds an empty binding, behaviour 0, and refuses writes with
/// `INVALID_LOCATION`), and `get_keymap` still answers `keyCount` bindings per layer. `set_active_physical_layout`
/// reads its index as one byte (ZMK's `uint8_t` cast: 256 is 0), answers the keymap in the new layout's positions,
/// or `GENERIC` for an index with no layout (never `INVALID_LAYOUT_INDEX`), and raises
/// `unsaved_changes_status_changed(true)` either way, even when nothing changed; the choice is staged:
/// `save_changes` keeps it, `discard_changes` goes back to the stock layout (ZMK reselects its default, not the
/// saved one), and `check_unsaved_changes` counts it.
/// Faults are one-shot and counted from creation.
package struct SimulatedStudioFirmware: Sendable {
    /// A fault to inject.
    package enum Fault: Hashable, Sendable {
        /// The `call`-th `set_layer_binding` (1-based) answers `meta.simple_error = GENERIC` and stages nothing.
        case failSetLayerBinding(call: Int)
        /// After answering the `afterRequests`-th request, the link drops: nothing more is answered until
        /// `reconnect()`.
        case dropConnection(afterRequests: Int)
    }

    /// The keyboard name `get_device_info` reports.
    package let name: String
    /// The serial number `get_device_info` reports.
    package let serialNumber: [UInt8]
    /// The behaviours the firmware offers: the standard ones, then one per firmware macro.
    package let behaviors: [SimulatedStudioBehavior]
    /// The layer names the firmware was built with, by index.
    package let layerNames: [String]
    /// The longest layer name `set_layer_props` stores (ZMK's `CONFIG_ZMK_KEYMAP_LAYER_NAME_MAX_LEN`).
    package static let maximumLayerNameLength = 20
    /// Bindings per layer.
    package let keyCount: Int
    /// The physical layouts `get_physical_layouts` reports; the first is the stock one, in whose key order the
    /// keymap is stored.
    package let physicalLayouts: [StudioPhysicalLayout]
    /// The index of the active physical layout.
    package private(set) var activePhysicalLayout = 0
    /// The index of the physical layout last saved.
    package private(set) var savedPhysicalLayout = 0
    /// Whether losing the link locks the keyboard (ZMK's `CONFIG_ZMK_STUDIO_LOCK_ON_DISCONNECT`).
    package let locksOnDisconnect: Bool
    /// The most layers the keymap can have (ZMK's `ZMK_KEYMAP_LAYERS_LEN`: the layers it was built with, in use
    /// or reserved).
    package let maximumLayerCount: Int

    /// The current lock state.
    package private(set) var lockState: StudioLockState = .locked
    /// What is in flash: the keymap after the last save.
    package private(set) var savedKeymap: [[StudioBehaviorBinding]]
    /// What the keyboard uses now: the saved keymap plus staged edits.
    package private(set) var activeKeymap: [[StudioBehaviorBinding]]
    /// The ids of the layers in use, in layer order.
    package private(set) var activeLayerIDs: [UInt32]
    /// Layer names by id, staged edits included.
    package private(set) var activeLayerNames: [UInt32: String]
    /// Whether edits are staged (set by any accepted `set_layer_binding`, cleared by save and discard).
    package private(set) var hasUnsavedChanges = false
    /// Whether the simulated link is up.
    package private(set) var isConnected = true
    /// Every request decoded so far, in order (including those answered with errors).
    package private(set) var requestLog: [StudioRequest] = []
    /// Request payloads that did not decode; ZMK logs them and answers nothing.
    package private(set) var undecodableRequestCount = 0

    private let defaultKeymap: [[StudioBehaviorBinding]]
    private var savedLayerIDs: [UInt32]
    private var savedLayerNames: [UInt32: String]
    /// Layers removed since the last save or discard, by id: what `restore_layer` brings back.
    private var removedLayers: [UInt32: [StudioBehaviorBinding]] = [:]
    private var faults: Set<Fault>
    private var setLayerBindingCalls = 0
    private var decoder = StudioFrameDecoder()

    /// Creates a keyboard.
    /// - Parameters:
    ///   - keymap: the firmware's default keymap, one array of bindings per layer (all the same length); nil for
    ///     `layerCount` layers of `keyCount` keys: layer 0 types letters and digits, the others are transparent.
    ///   - macroBehaviorNames: display names of firmware macro behaviours (ZMK has no runtime macros).
    ///   - availableLayers: how many layers `add_layer` can add beyond `keymap`'s (ZMK's reserved layers).
    ///   - physicalLayouts: the physical layouts, the stock one first; empty for one grid of 1u keys, 18 to a row.
    /// - Precondition: the layers of `keymap` have equal length (this is test setup, not peer input).
    package init(
        name: String = "Aula F87", serialNumber: [UInt8] = [0xF8, 0x70, 0x00, 0x01], layerCount: Int = 4,
        keyCount: Int = 87, keymap: [[StudioBehaviorBinding]]? = nil, layerNames: [String]? = nil,
        macroBehaviorNames: [String] = [], physicalLayouts: [StudioPhysicalLayout] = [],
        faults: Set<Fault> = [], locksOnDisconnect: Bool = true, availableLayers: Int = 0
    ) {
        var behaviors = SimulatedStudioBehavior.standard()
        let nextID = (behaviors.map(\.id).max() ?? 0) + 1
        for (offset, macro) in macroBehaviorNames.enumerated() {
            behaviors.append(.init(id: nextID + UInt32(offset), displayName: macro, parameters: .none))
        }
        self.name = name
        self.serialNumber = serialNumber
        self.behaviors = behaviors
        self.faults = faults
        self.locksOnDisconnect = locksOnDisconnect
        let keyPress = Int32(behaviors[0].id)
        let transparent = Int32(behaviors[2].id)
        let defaultKeymap =
            keymap
            ?? (0..<max(1, layerCount)).map { layer in
                (0..<max(1, keyCount)).map { position in
                    guard layer == 0 else { return StudioBehaviorBinding(behaviorID: transparent) }
                    // Usages 0x04...0x27 are A-Z and 1-0 on the keyboard page.
                    let usage = StudioHIDUsage(page: StudioHIDUsage.keyboardPage, id: UInt16(0x04 + position % 36))
                    return StudioBehaviorBinding(behaviorID: keyPress, param1: usage.param1)
                }
            }
        precondition(Set(defaultKeymap.map(\.count)).count <= 1, "every layer needs the same number of bindings")
        self.defaultKeymap = defaultKeymap
        savedKeymap = defaultKeymap
        activeKeymap = defaultKeymap
        self.keyCount = defaultKeymap.first?.count ?? 0
        maximumLayerCount = defaultKeymap.count + max(0, availableLayers)
        let names = layerNames ?? defaultKeymap.indices.map { $0 == 0 ? "Base" : "Layer \($0)" }
        self.layerNames = names
        savedLayerIDs = defaultKeymap.indices.map { UInt32($0) }
        activeLayerIDs = savedLayerIDs
        var byID: [UInt32: String] = [:]
        for (index, name) in names.enumerated() where index < defaultKeymap.count { byID[UInt32(index)] = name }
        savedLayerNames = byID
        activeLayerNames = byID
        self.physicalLayouts =
            physicalLayouts.isEmpty ? [Self.gridLayout(keyCount: defaultKeymap.first?.count ?? 0)] : physicalLayouts
    }

    /// A plain grid of 1u keys, 18 to a row.
    private static func gridLayout(keyCount: Int) -> StudioPhysicalLayout {
        var keys: [StudioKeyPhysicalAttributes] = []
        for position in 0..<keyCount {
            let column = Int32(position % 18)
            let row = Int32(position / 18)
            keys.append(StudioKeyPhysicalAttributes(width: 100, height: 100, x: column * 100, y: row * 100))
        }
        return StudioPhysicalLayout(name: "Default", keys: keys)
    }

    /// The id of the behaviour with this display name.
    package func behaviorID(named displayName: String) -> UInt32? {
        behaviors.first { $0.displayName == displayName }?.id
    }

    // MARK: User and link events

    /// The user pressed the key bound to `&studio_unlock`: unlocks and returns the `lock_state_changed`
    /// notification (none when already unlocked).
    package mutating func unlock() -> [StudioResponse] {
        setLockState(.unlocked)
    }

    /// The keyboard locked itself (idle timeout): returns the notification (none when already locked).
    package mutating func lock() -> [StudioResponse] {
        setLockState(.locked)
    }

    /// The link came back after a drop. Staged edits survive, as they do in ZMK's RAM.
    package mutating func reconnect() {
        isConnected = true
        decoder.reset()
    }

    /// The link dropped (from outside, e.g. the simulated radio): staged edits survive; the keyboard locks
    /// if `locksOnDisconnect`.
    package mutating func disconnect() {
        isConnected = false
        decoder.reset()
        if locksOnDisconnect { lockState = .locked }
    }

    /// Another tool (the ZMK Studio web app, a firmware flash) changed a binding and saved it, behind the back of
    /// kblink: the saved and the active keymap both hold `binding` at `position` of `layer`.
    /// - Returns: whether the location exists (nothing changes otherwise).
    @discardableResult
    package mutating func overwrite(layer: Int, position: Int, with binding: StudioBehaviorBinding) -> Bool {
        guard savedKeymap.indices.contains(layer), savedKeymap[layer].indices.contains(position),
            activeKeymap.indices.contains(layer), activeKeymap[layer].indices.contains(position)
        else { return false }
        savedKeymap[layer][position] = binding
        activeKeymap[layer][position] = binding
        return true
    }

    /// The `set_layer_binding` and `save_changes` requests received so far: the writes a push makes.
    package var writeRequestCount: Int {
        requestLog.count { request in
            switch request.subsystem {
            case .keymap(.setLayerBinding), .keymap(.saveChanges): true
            default: false
            }
        }
    }

    // MARK: Requests

    /// Consumes bytes written to the characteristic (any chunking) and returns the framed bytes to indicate back:
    /// notifications and answers, in the order ZMK sends them.
    package mutating func receive(bytes: some Collection<UInt8>) -> [UInt8] {
        guard isConnected else { return [] }
        decoder.append(bytes)
        var output: [UInt8] = []
        while isConnected {
            let payload: [UInt8]?
            do {
                payload = try decoder.nextPayload()
            } catch {
                continue  // ZMK drops a broken frame and waits for the next start byte.
            }
            guard let payload else { break }
            for response in handle(requestPayload: payload) {
                output += StudioFrameCodec.encode(response.serializedBytes())
            }
        }
        return output
    }

    /// Handles one request payload (unframed); returns nothing for a payload that does not decode or when the
    /// link is down.
    package mutating func handle(requestPayload: [UInt8]) -> [StudioResponse] {
        guard isConnected else { return [] }
        guard let request = try? StudioRequest(serializedBytes: requestPayload) else {
            undecodableRequestCount += 1
            return []
        }
        return handle(request)
    }

    /// Handles one request; returns the notifications it raised followed by its answer.
    package mutating func handle(_ request: StudioRequest) -> [StudioResponse] {
        guard isConnected else { return [] }
        requestLog.append(request)
        var notifications: [StudioResponse] = []
        let payload = answer(request.subsystem, notifications: &notifications)
        let output = notifications + [.requestResponse(.init(requestID: request.requestID, payload: payload))]
        let dropAfter = faults.compactMap { fault -> Int? in
            if case .dropConnection(let count) = fault, count <= requestLog.count { return count }
            return nil
        }
        if let count = dropAfter.first {
            faults.remove(.dropConnection(afterRequests: count))
            disconnect()
        }
        return output
    }

    private mutating func answer(
        _ subsystem: StudioRequest.Subsystem?, notifications: inout [StudioResponse]
    ) -> StudioRequestResponse.Payload {
        guard let subsystem else { return .meta(.simpleError(.rpcNotFound)) }
        if lockState != .unlocked && !Self.allowedWhileLocked(subsystem) {
            return .meta(.simpleError(.unlockRequired))
        }
        switch subsystem {
        case .core(.getDeviceInfo):
            return .core(.deviceInfo(.init(name: name, serialNumber: serialNumber)))
        case .core(.getLockState):
            return .core(.lockState(lockState))
        case .core(.lock):
            notifications += setLockState(.locked)
            return .meta(.noResponse)
        case .core(.resetSettings):
            activePhysicalLayout = 0
            savedPhysicalLayout = 0
            savedKeymap = defaultKeymap
            activeKeymap = defaultKeymap
            savedLayerIDs = defaultKeymap.indices.map { UInt32($0) }
            activeLayerIDs = savedLayerIDs
            var names: [UInt32: String] = [:]
            for (index, name) in layerNames.enumerated() where index < defaultKeymap.count {
                names[UInt32(index)] = name
            }
            savedLayerNames = names
            activeLayerNames = names
            removedLayers = [:]
            hasUnsavedChanges = false
            return .core(.resetSettings(true))
        case .behaviors(.listAllBehaviors):
            return .behaviors(.behaviorIDs(behaviors.map(\.id)))
        case .behaviors(.getBehaviorDetails(let id)):
            guard let behavior = behaviors.first(where: { $0.id == id }) else { return .meta(.simpleError(.generic)) }
            return .behaviors(.behaviorDetails(.init(id: behavior.id, displayName: behavior.displayName)))
        case .keymap(.getKeymap):
            return .keymap(.keymap(currentKeymap()))
        case .keymap(.setLayerBinding(let request)):
            return setLayerBinding(request, notifications: &notifications)
        case .keymap(.checkUnsavedChanges):
            return .keymap(.unsavedChanges(hasUnsavedChanges || activePhysicalLayout != savedPhysicalLayout))
        case .keymap(.saveChanges):
            savedPhysicalLayout = activePhysicalLayout
            savedKeymap = activeKeymap
            savedLayerIDs = activeLayerIDs
            savedLayerNames = activeLayerNames
            removedLayers = [:]
            hasUnsavedChanges = false
            notifications.append(.notification(.keymap(.unsavedChangesStatusChanged(false))))
            return .keymap(.saveChanges(.ok))
        case .keymap(.discardChanges):
            // ZMK's revert selects the default layout again, not the one last saved.
            activePhysicalLayout = 0
            activeKeymap = savedKeymap
            activeLayerIDs = savedLayerIDs
            activeLayerNames = savedLayerNames
            removedLayers = [:]
            hasUnsavedChanges = false
            notifications.append(.notification(.keymap(.unsavedChangesStatusChanged(false))))
            return .keymap(.discardChanges(true))
        case .keymap(.addLayer):
            return addLayer(notifications: &notifications)
        case .keymap(.removeLayer(let index)):
            return removeLayer(at: index, notifications: &notifications)
        case .keymap(.restoreLayer(let id, let index)):
            return restoreLayer(id: id, at: index, notifications: &notifications)
        case .keymap(.moveLayer(let from, let to)):
            return moveLayer(from: from, to: to, notifications: &notifications)
        case .keymap(.setLayerProps(let request)):
            return setLayerProps(request, notifications: &notifications)
        case .keymap(.getPhysicalLayouts):
            return .keymap(
                .physicalLayouts(
                    .init(activeLayoutIndex: UInt32(activePhysicalLayout), layouts: physicalLayouts)))
        case .keymap(.setActivePhysicalLayout(let index)):
            return setActivePhysicalLayout(index, notifications: &notifications)
        }
    }

    private static func allowedWhileLocked(_ subsystem: StudioRequest.Subsystem) -> Bool {
        switch subsystem {
        case .core(.getDeviceInfo), .core(.getLockState), .core(.lock), .behaviors(.listAllBehaviors): true
        default: false
        }
    }

    private mutating func setLayerBinding(
        _ request: StudioSetLayerBindingRequest, notifications: inout [StudioResponse]
    ) -> StudioRequestResponse.Payload {
        setLayerBindingCalls += 1
        if faults.remove(.failSetLayerBinding(call: setLayerBindingCalls)) != nil {
            return .meta(.simpleError(.generic))
        }
        guard let layer = activeLayerIDs.firstIndex(of: request.layerID),
            let position = stockPosition(Int(request.keyPosition))
        else {
            return .keymap(.setLayerBinding(.invalidLocation))
        }
        let binding = request.binding
        guard binding.behaviorID >= 0, let behavior = behaviors.first(where: { $0.id == UInt32(binding.behaviorID) })
        else {
            return .keymap(.setLayerBinding(.invalidBehavior))
        }
        guard parametersAreValid(binding, for: behavior) else {
            return .keymap(.setLayerBinding(.invalidParameters))
        }
        activeKeymap[layer][position] = binding
        hasUnsavedChanges = true
        notifications.append(.notification(.keymap(.unsavedChangesStatusChanged(true))))
        return .keymap(.setLayerBinding(.ok))
    }

    private mutating func addLayer(notifications: inout [StudioResponse]) -> StudioRequestResponse.Payload {
        guard activeKeymap.count < maximumLayerCount else { return .keymap(.addLayer(.failed(.noSpace))) }
        let transparent = StudioBehaviorBinding(behaviorID: Int32(behaviors[2].id))
        guard let id = (0..<UInt32(maximumLayerCount)).first(where: { !activeLayerIDs.contains($0) }) else {
            return .keymap(.addLayer(.failed(.noSpace)))
        }
        activeKeymap.append([StudioBehaviorBinding](repeating: transparent, count: keyCount))
        activeLayerIDs.append(id)
        removedLayers[id] = nil
        activeLayerNames[id] = nil
        stage(&notifications)
        let index = activeKeymap.count - 1
        return .keymap(.addLayer(.ok(index: UInt32(index), layer: currentKeymap().layers[index])))
    }

    private mutating func removeLayer(at index: UInt32, notifications: inout [StudioResponse])
        -> StudioRequestResponse.Payload
    {
        let position = Int(index)
        guard activeKeymap.indices.contains(position) else {
            return .keymap(.removeLayer(.failed(.invalidFirst)))
        }
        guard activeKeymap.count > 1 else { return .keymap(.removeLayer(.failed(.generic))) }
        removedLayers[activeLayerIDs[position]] = activeKeymap[position]
        activeKeymap.remove(at: position)
        activeLayerIDs.remove(at: position)
        stage(&notifications)
        return .keymap(.removeLayer(.ok(StudioEmptyMessage())))
    }

    private mutating func restoreLayer(id: UInt32, at index: UInt32, notifications: inout [StudioResponse])
        -> StudioRequestResponse.Payload
    {
        guard let bindings = removedLayers[id], !activeLayerIDs.contains(id) else {
            return .keymap(.restoreLayer(.failed(.invalidFirst)))
        }
        let position = Int(index)
        guard position <= activeKeymap.count, activeKeymap.count < maximumLayerCount else {
            return .keymap(.restoreLayer(.failed(.invalidSecond)))
        }
        removedLayers[id] = nil
        activeKeymap.insert(bindings, at: position)
        activeLayerIDs.insert(id, at: position)
        stage(&notifications)
        return .keymap(.restoreLayer(.ok(currentKeymap().layers[position])))
    }

    private mutating func moveLayer(from: UInt32, to: UInt32, notifications: inout [StudioResponse])
        -> StudioRequestResponse.Payload
    {
        let start = Int(from)
        let destination = Int(to)
        // ZMK answers every failure of a move with GENERIC, whatever was wrong.
        guard activeKeymap.indices.contains(start), activeKeymap.indices.contains(destination) else {
            return .keymap(.moveLayer(.failed(.generic)))
        }
        if start != destination {
            activeKeymap.insert(activeKeymap.remove(at: start), at: destination)
            activeLayerIDs.insert(activeLayerIDs.remove(at: start), at: destination)
            stage(&notifications)
        }
        return .keymap(.moveLayer(.ok(currentKeymap())))
    }

    private mutating func setLayerProps(_ request: StudioSetLayerPropsRequest, notifications: inout [StudioResponse])
        -> StudioRequestResponse.Payload
    {
        // ZMK returns OK for an empty name without looking at the layer.
        guard !request.name.isEmpty else { return .keymap(.setLayerProps(.ok)) }
        guard activeLayerIDs.contains(request.layerID) else { return .keymap(.setLayerProps(.invalidFirst)) }
        guard request.name.utf8.count <= Self.maximumLayerNameLength else {
            return .keymap(.setLayerProps(.generic))
        }
        activeLayerNames[request.layerID] = request.name
        stage(&notifications)
        return .keymap(.setLayerProps(.ok))
    }

    /// Marks edits staged and raises `unsaved_changes_status_changed(true)`.
    private mutating func stage(_ notifications: inout [StudioResponse]) {
        hasUnsavedChanges = true
        notifications.append(.notification(.keymap(.unsavedChangesStatusChanged(true))))
    }

    private func parametersAreValid(_ binding: StudioBehaviorBinding, for behavior: SimulatedStudioBehavior) -> Bool {
        switch behavior.parameters {
        case .none:
            return binding.param1 == 0 && binding.param2 == 0
        case .layer:
            return binding.param1 < UInt32(activeKeymap.count) && binding.param2 == 0
        case .hidUsage:
            let usage = StudioHIDUsage(param1: binding.param1)
            let idIsValid =
                switch usage.page {
                case StudioHIDUsage.keyboardPage: usage.id <= 0xFF
                case StudioHIDUsage.consumerPage: usage.id <= 0xFFF
                default: false
                }
            return idIsValid && binding.param2 == 0
        }
    }

    private mutating func setActivePhysicalLayout(_ requested: UInt32, notifications: inout [StudioResponse])
        -> StudioRequestResponse.Payload
    {
        // ZMK casts the index to uint8_t before looking at it, and raises the notification whatever happened.
        let index = Int(UInt8(truncatingIfNeeded: requested))
        defer { notifications.append(.notification(.keymap(.unsavedChangesStatusChanged(true)))) }
        guard physicalLayouts.indices.contains(index) else {
            return .keymap(.setActivePhysicalLayout(.failed(.generic)))
        }
        activePhysicalLayout = index
        return .keymap(.setActivePhysicalLayout(.ok(currentKeymap())))
    }

    /// The stock key position that key position `position` of the active layout stands for (ZMK's position map
    /// without `zmk,physical-layout-position-map` nodes: the stock key at the same x and y); nil for none.
    private func stockPosition(_ position: Int) -> Int? {
        guard position >= 0, position < keyCount else { return nil }
        guard activePhysicalLayout != 0 else { return position }
        let active = physicalLayouts[activePhysicalLayout].keys
        guard position < active.count else { return nil }
        let key = active[position]
        guard let stock = physicalLayouts[0].keys.firstIndex(where: { $0.x == key.x && $0.y == key.y }),
            stock < keyCount
        else { return nil }
        return stock
    }

    private func currentKeymap() -> StudioKeymap {
        StudioKeymap(
            layers: zip(activeLayerIDs, activeKeymap).map { id, bindings in
                let positioned = (0..<keyCount).map { position in
                    stockPosition(position).map { bindings[$0] } ?? StudioBehaviorBinding(behaviorID: 0)
                }
                return StudioLayer(id: id, name: activeLayerNames[id] ?? "", bindings: positioned)
            },
            availableLayers: UInt32(max(0, maximumLayerCount - activeKeymap.count)),
            maxLayerNameLength: UInt32(Self.maximumLayerNameLength))
    }

    private mutating func setLockState(_ state: StudioLockState) -> [StudioResponse] {
        guard lockState != state else { return [] }
        lockState = state
        return [.notification(.core(.lockStateChanged(state)))]
    }
}
