import KeyboardLinkKeymap

/// A firmware protocol that can read and change a keyboard's keymap (ZMK Studio, VIA).
///
/// Drivers speak in the keymap model's terms (`KeyName`, `KeyAction`) on the keyboard's layout; how positions and
/// actions are encoded is theirs. Every call may talk to the keyboard; they run one at a time per driver.
package protocol KeyboardDriver: Sendable {
    /// The `Driver` property's value: `zmk-studio`, `via`.
    var kind: DriverKind { get }

    /// Checks that the keyboard speaks this protocol and reads what it offers.
    /// - Throws: `DriverError`.
    func identify() async throws(DriverError) -> DriverIdentity

    /// Reads every layer of the keymap, on `layout`'s keys, and the macro slots of keyboards with runtime macros.
    /// - Throws: `DriverError` (`.locked` when the keyboard must be unlocked first).
    func readKeymap(layout: PhysicalLayout) async throws(DriverError) -> DeviceKeymap

    /// Checks that an action can be written, without writing it.
    /// - Throws: `DriverError.notSupported` naming what cannot be encoded.
    func check(_ action: KeyAction) async throws(DriverError)

    /// What the driver learned of the actions the firmware can hold, to check actions once it is closed; nil when
    /// it has not learned it yet (ZMK Studio lists its behaviours on the first read, write or check).
    func actionSupport() async -> DriverActionSupport?

    /// Writes one binding (staged where the protocol stages).
    /// - Throws: `DriverError`.
    func write(_ write: DriverKeyWrite, layout: PhysicalLayout) async throws(DriverError)

    /// Writes bindings (staged where the protocol stages), as few reports as the protocol allows: VIA sends runs
    /// of nearby keycodes in one bulk report. `progress` is told, after each report, how many of `writes`, in
    /// order, the keyboard has taken (the prefix a failed push passes to `rollback`); a driver that may have
    /// written more when it throws puts those back in `rollback` too.
    /// - Throws: `DriverError`.
    func write(
        _ writes: [DriverKeyWrite], layout: PhysicalLayout, progress: @Sendable (Int) async -> Void
    ) async throws(DriverError)

    /// Checks that the macro slots of `macros` fit the keyboard's macro storage, without writing.
    /// Only called for keyboards that read back `DeviceKeymap.macros`.
    /// - Throws: `DriverError.notSupported` naming the macros, the bytes they need and the bytes there are.
    func check(_ macros: DriverMacroWrite, on device: DeviceMacros) async throws(DriverError)

    /// Writes the macro slots of `macros` over what `device` holds, sending only what differs; a write cut short
    /// leaves the keyboard playing no macro rather than half a macro.
    /// - Throws: `DriverError`.
    func write(_ macros: DriverMacroWrite, replacing device: DeviceMacros) async throws(DriverError)

    /// Puts the macro storage back as `previous` held it, byte for byte (rollback after a failed push).
    /// - Throws: `DriverError`.
    func restore(_ previous: DeviceMacros) async throws(DriverError)

    /// Adds `count` layers after the keyboard's last one, staged like binding writes (ZMK Studio `add_layer`;
    /// `DeviceKeymap.addableLayers` says how many the firmware has room for).
    /// - Throws: `DriverError.notSupported` when the firmware cannot add them (VIA: never).
    func addLayers(_ count: Int) async throws(DriverError)

    /// Removes the keyboard's last `count` layers, staged like binding writes (ZMK Studio `remove_layer`;
    /// `DeviceKeymap.removesLayers` says whether the firmware can).
    /// - Throws: `DriverError.notSupported` when the firmware cannot (VIA: never).
    func removeLayers(_ count: Int) async throws(DriverError)

    /// Names a layer, staged like binding writes (ZMK Studio `set_layer_props`).
    /// - Throws: `DriverError.notSupported` when the firmware holds no names (VIA).
    func setLayerName(_ name: LayerName, layer: Int) async throws(DriverError)

    /// The physical layouts the firmware knows, in its order, the active one marked (ZMK Studio
    /// `get_physical_layouts`).
    /// - Throws: `DriverError.notSupported` when the firmware has a single layout it does not describe (VIA).
    func physicalLayouts() async throws(DriverError) -> [DevicePhysicalLayout]
    /// Makes the physical layout at `index` (of `physicalLayouts()`) the active one, staged like binding writes
    /// until `save()` (ZMK Studio `set_active_physical_layout`). Key positions follow the new layout: read the
    /// keymap again afterwards.
    /// - Throws: `DriverError.notSupported` for an index the firmware has no layout at, or a firmware with one
    ///   layout (VIA).
    func setActivePhysicalLayout(_ index: Int) async throws(DriverError)
    /// Makes the written bindings permanent (ZMK `save_changes`; VIA writes straight to EEPROM: nothing to do).
    /// - Throws: `DriverError`.
    func save() async throws(DriverError)

    /// Undoes binding writes that were not saved: ZMK `discard_changes`, VIA rewrites `previous` where `written`
    /// changed it (macro slots are put back by `restore(_:)`).
    /// - Throws: `DriverError`.
    func rollback(previous: DeviceKeymap, written: [DriverKeyWrite], layout: PhysicalLayout)
        async throws(DriverError)

    /// Waits until the keyboard is unlocked (ZMK Studio), at most `timeout`.
    /// - Returns: whether it is unlocked.
    func waitUntilUnlocked(timeout: Duration) async -> Bool

    /// Releases the link (notification sessions, sockets).
    func close() async
}

extension KeyboardDriver {
    /// One binding per write, in order.
    package func write(
        _ writes: [DriverKeyWrite], layout: PhysicalLayout, progress: @Sendable (Int) async -> Void
    ) async throws(DriverError) {
        for (index, write) in writes.enumerated() {
            try await self.write(write, layout: layout)
            await progress(index + 1)
        }
    }

    /// Keyboards without runtime macros (ZMK binds firmware macro behaviours by name) have none to check.
    package func check(_ macros: DriverMacroWrite, on device: DeviceMacros) async throws(DriverError) {
        throw .notSupported("\(kind.rawValue) keyboards cannot define macros at run time")
    }

    /// Keyboards without runtime macros have none to write.
    package func write(_ macros: DriverMacroWrite, replacing device: DeviceMacros) async throws(DriverError) {
        throw .notSupported("\(kind.rawValue) keyboards cannot define macros at run time")
    }

    /// Keyboards whose layer count is fixed add none.
    package func addLayers(_ count: Int) async throws(DriverError) {
        guard count > 0 else { return }
        throw .notSupported("\(kind.rawValue) keyboards have a fixed number of layers")
    }

    /// Keyboards whose layer count is fixed remove none.
    package func removeLayers(_ count: Int) async throws(DriverError) {
        guard count > 0 else { return }
        throw .notSupported("\(kind.rawValue) keyboards have a fixed number of layers")
    }

    /// Keyboards with one physical layout do not describe it.
    package func physicalLayouts() async throws(DriverError) -> [DevicePhysicalLayout] {
        throw .notSupported("\(kind.rawValue) keyboards have one physical layout, which kblink cannot switch")
    }

    /// Keyboards with one physical layout cannot switch it.
    package func setActivePhysicalLayout(_ index: Int) async throws(DriverError) {
        throw .notSupported("\(kind.rawValue) keyboards have one physical layout, which kblink cannot switch")
    }

    /// Keyboards that hold no layer names take none.
    package func setLayerName(_ name: LayerName, layer: Int) async throws(DriverError) {
        throw .notSupported("\(kind.rawValue) keyboards hold no layer names")
    }

    /// Keyboards without runtime macros have none to restore.
    package func restore(_ previous: DeviceMacros) async throws(DriverError) {
        throw .notSupported("\(kind.rawValue) keyboards cannot define macros at run time")
    }
}

/// Which firmware protocol a keyboard speaks, as the `Driver` property shows it.
package enum DriverKind: String, Sendable, Hashable, CaseIterable {
    /// ZMK Studio RPC over GATT.
    case zmkStudio = "zmk-studio"
    /// VIA over raw HID.
    case via
}

/// What a keyboard said about itself when identified.
package struct DriverIdentity: Sendable, Hashable {
    /// The firmware's name for the keyboard.
    package var name: String
    /// What the driver can do on it.
    package var capabilities: DriverCapabilities

    /// Creates an identity.
    package init(name: String, capabilities: DriverCapabilities) {
        self.name = name
        self.capabilities = capabilities
    }
}

/// What a driver can change on a keyboard.
package struct DriverCapabilities: Sendable, Hashable {
    /// The number of layers the keyboard holds.
    package var layers: Int
    /// Bindings per layer.
    package var keys: Int
    /// Bytes of the macro buffer (0 without runtime macros).
    package var macroBufferSize: Int
    /// Macro slots (VIA `macro_get_count`; 0 without runtime macros).
    package var macroSlots: Int
    /// Whether macros can be defined at run time (VIA) or only bound when the firmware defines them (ZMK).
    package var runtimeMacros: Bool
    /// Whether writes are staged until saved, so that a failed push can be discarded (ZMK).
    package var stagesChanges: Bool

    /// Creates capabilities.
    package init(
        layers: Int, keys: Int, macroBufferSize: Int, macroSlots: Int = 0, runtimeMacros: Bool, stagesChanges: Bool
    ) {
        self.layers = layers
        self.keys = keys
        self.macroBufferSize = macroBufferSize
        self.macroSlots = macroSlots
        self.runtimeMacros = runtimeMacros
        self.stagesChanges = stagesChanges
    }
}

/// One binding to write: what `key` does on `layer`.
package struct DriverKeyWrite: Sendable, Hashable {
    /// The layer index.
    package var layer: Int
    /// The key, on the keyboard's layout.
    package var key: KeyName
    /// The new action.
    package var action: KeyAction
    /// For `.macro` on a keyboard with runtime macros, the slot that plays it (`DriverMacroWrite.assignment`);
    /// nil otherwise.
    package var macroSlot: Int?

    /// Creates a write.
    package init(layer: Int, key: KeyName, action: KeyAction, macroSlot: Int? = nil) {
        self.layer = layer
        self.key = key
        self.action = action
        self.macroSlot = macroSlot
    }
}
