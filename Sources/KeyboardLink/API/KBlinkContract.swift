import KeyboardLinkDBus
import KeyboardLinkSupport

/// The `org.kblink1` API, written once: every method, property and signal with its interface, name and the
/// names and types of its arguments. A method's arguments and answer are Swift types (``KBlinkMethod``), whose
/// D-Bus types are its signature; structured ones are types of this module with one codec each
/// (``KeyboardSummary``, ``DiffRow``, ``KeyGeometry``, ``StoredBinding``). The daemon declares its objects from these values and the client calls
/// with them, so the two cannot disagree; `ContractTests` checks them against `docs/dbus/org.kblink1.xml`.
public enum KBlinkContract {
    /// `org.kblink1.Manager`.
    public enum Manager {
        /// The interface's name.
        public static let interface: InterfaceName = "org.kblink1.Manager"
        /// `StartDiscovery()`.
        public static let startDiscovery = KBlinkMethod<NoArguments, NoReply>(
            interface, "StartDiscovery", access: .requires(.pair))
        /// `StopDiscovery()`.
        public static let stopDiscovery = KBlinkMethod<NoArguments, NoReply>(
            interface, "StopDiscovery", access: .requires(.pair))
        /// `ListKeyboards() -> a(KeyboardSummary) keyboards`: the signature is ``KeyboardSummary``'s.
        public static let listKeyboards = KBlinkMethod<NoArguments, Reply<[KeyboardSummary]>>(
            interface, "ListKeyboards", output: "keyboards", access: .anyone)
        /// `HealthSummary() -> (a{su}a(ossss)) summary` (``KeyboardHealthSummary``): how many keyboards are in each
        /// health, and the ones waiting, healing or failed.
        public static let healthSummary = KBlinkMethod<NoArguments, Reply<KeyboardHealthSummary>>(
            interface, "HealthSummary", output: "summary", access: .anyone)
        /// `ResolveInsets(a{sv} request) -> a{sv} answer`.
        public static let resolveInsets = KBlinkMethod<
            KBlinkArguments<[String: DBusValue]>, Reply<[String: DBusValue]>
        >(
            interface, "ResolveInsets", inputs: ["request"], output: "answer", access: .anyone)
        /// `Pair(s device) -> o keyboard`.
        public static let pair = KBlinkMethod<KBlinkArguments<String>, Reply<ObjectPath>>(
            interface, "Pair", inputs: ["device"], output: "keyboard", access: .requires(.pair))
        /// `CancelPairing(s device)`.
        public static let cancelPairing = KBlinkMethod<KBlinkArguments<String>, NoReply>(
            interface, "CancelPairing", inputs: ["device"], access: .requires(.pair))
        /// `ConfirmPairing(s device, b accept)`: the `Pair` caller's answer to a `confirm-passkey` or `authorize`
        /// prompt.
        public static let confirmPairing = KBlinkMethod<KBlinkArguments<String, Bool>, NoReply>(
            interface, "ConfirmPairing", inputs: ["device", "accept"], access: .requires(.pair))
        /// `AddLayout((ssqqqqsa(ssddddqqs)) layout) -> a(sss) keyboards`: teaches kblinkd a layout for the keyboards
        /// with its vendor and product IDs (``KeyboardLayoutDefinition``), replacing one of the same id; answers what
        /// it did to the matching keyboards it knows (``LayoutApplication``).
        public static let addLayout = KBlinkMethod<
            KBlinkArguments<KeyboardLayoutDefinition>, Reply<[LayoutApplication]>
        >(
            interface, "AddLayout", inputs: ["layout"], output: "keyboards", access: .requires(.editKeymap),
            maximumBodySize: 256 << 10)
        /// `RemoveLayout(s id) -> a(sss) keyboards`: forgets a layout `AddLayout` taught.
        public static let removeLayout = KBlinkMethod<KBlinkArguments<String>, Reply<[LayoutApplication]>>(
            interface, "RemoveLayout", inputs: ["id"], output: "keyboards", access: .requires(.editKeymap))
        /// `ListLayouts() -> a(ssqqus) layouts` (``LayoutSummary``): the layouts `AddLayout` taught, by id.
        public static let listLayouts = KBlinkMethod<NoArguments, Reply<[LayoutSummary]>>(
            interface, "ListLayouts", output: "layouts", access: .anyone)
        /// `SetKeyboardBinding(s device, s zone, u layer, s key, s action) -> (ss(sussbs)) edit`: `Keymap.SetBinding`
        /// on the keyboard `device` names (an address or a known name, as for `Pair`), answering that keyboard and the
        /// binding as stored (``KeyboardBindingEdit``): an edit by name is one call, as systemd's `StartUnit` is
        /// `Unit.Start` by name.
        public static let setKeyboardBinding = KBlinkMethod<
            KBlinkArguments<String, String, UInt32, String, String>, Reply<KeyboardBindingEdit>
        >(
            interface, "SetKeyboardBinding", inputs: ["device", "zone", "layer", "key", "action"], output: "edit",
            access: .requiresForKeyboard(.editKeymap))
        /// `GetLayout(s id) -> (ssqqqqsa(ssddddqqs)) layout` (``KeyboardLayoutDefinition``).
        public static let getLayout = KBlinkMethod<KBlinkArguments<String>, Reply<KeyboardLayoutDefinition>>(
            interface, "GetLayout", inputs: ["id"], output: "layout", access: .anyone)
        /// The `Version` property (`s`, const).
        public static let versionProperty = KBlinkProperty<String>(interface, "Version", changes: .const)
        /// The `HardwareKeyboardAttached` property (`b`).
        public static let hardwareKeyboardAttachedProperty = KBlinkProperty<Bool>(interface, "HardwareKeyboardAttached")
        /// The `HardwareKeyboards` property (`a(sss)`).
        public static let hardwareKeyboardsProperty = KBlinkProperty<[HardwareKeyboardEntry]>(
            interface, "HardwareKeyboards")
        /// The `HardwareKeyboardReasons` property (`a(sssbs)`).
        public static let hardwareKeyboardReasonsProperty = KBlinkProperty<[HardwareKeyboardReasonEntry]>(
            interface, "HardwareKeyboardReasons")
        /// The `BluetoothAvailable` property (`b`).
        public static let bluetoothAvailableProperty = KBlinkProperty<Bool>(interface, "BluetoothAvailable")
        /// The `BlueZRunning` property (`b`).
        public static let blueZRunningProperty = KBlinkProperty<Bool>(interface, "BlueZRunning")
        /// The `Discovering` property (`b`).
        public static let discoveringProperty = KBlinkProperty<Bool>(interface, "Discovering")
        /// The `PairingPrompt(o keyboard, s kind, s code, q entered)` signal (``PairingPromptSignal``).
        public static let pairingPromptSignal = KBlinkSignal<PairingPromptSignal>(interface, "PairingPrompt")
        /// The `PairingFinished(o keyboard, b ok, s error, s message)` signal (``PairingFinishedSignal``).
        public static let pairingFinishedSignal = KBlinkSignal<PairingFinishedSignal>(interface, "PairingFinished")

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethodDeclaration] = [
            startDiscovery.declaration, stopDiscovery.declaration, listKeyboards.declaration,
            healthSummary.declaration, resolveInsets.declaration, pair.declaration, cancelPairing.declaration,
            confirmPairing.declaration,
            addLayout.declaration, removeLayout.declaration, listLayouts.declaration, getLayout.declaration,
            setKeyboardBinding.declaration,
        ]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkPropertyDeclaration] = [
            versionProperty.declaration, hardwareKeyboardAttachedProperty.declaration,
            hardwareKeyboardsProperty.declaration, hardwareKeyboardReasonsProperty.declaration,
            bluetoothAvailableProperty.declaration, blueZRunningProperty.declaration, discoveringProperty.declaration,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignalDeclaration] = [
            pairingPromptSignal.declaration, pairingFinishedSignal.declaration,
        ]
    }

    /// `org.kblink1.Keyboard`.
    public enum Keyboard {
        /// The interface's name.
        public static let interface: InterfaceName = "org.kblink1.Keyboard"
        /// `Connect()`.
        public static let connect = KBlinkMethod<NoArguments, NoReply>(interface, "Connect", access: .requires(.pair))
        /// `Disconnect()`.
        public static let disconnect = KBlinkMethod<NoArguments, NoReply>(
            interface, "Disconnect", access: .requires(.pair))
        /// `Forget()`.
        public static let forget = KBlinkMethod<NoArguments, NoReply>(interface, "Forget", access: .requires(.pair))
        /// `SetTrusted(b trusted)`.
        public static let setTrusted = KBlinkMethod<KBlinkArguments<Bool>, NoReply>(
            interface, "SetTrusted", inputs: ["trusted"], access: .requires(.pair))
        /// `RefreshInfo()`.
        public static let refreshInfo = KBlinkMethod<NoArguments, NoReply>(interface, "RefreshInfo", access: .anyone)
        /// The `Address` property (`s`, const).
        public static let addressProperty = KBlinkProperty<String>(interface, "Address", changes: .const)
        /// The `Name` property (`s`).
        public static let nameProperty = KBlinkProperty<String>(interface, "Name")
        /// The `Alias` property (`s`).
        public static let aliasProperty = KBlinkProperty<String>(interface, "Alias")
        /// The `Paired` property (`b`).
        public static let pairedProperty = KBlinkProperty<Bool>(interface, "Paired")
        /// The `Trusted` property (`b`).
        public static let trustedProperty = KBlinkProperty<Bool>(interface, "Trusted")
        /// The `Connected` property (`b`).
        public static let connectedProperty = KBlinkProperty<Bool>(interface, "Connected")
        /// The `Battery` property (`a(sy)`).
        public static let batteryProperty = KBlinkProperty<[KeyboardSummary.BatteryPart]>(interface, "Battery")
        /// The `Firmware` property (`a{ss}`).
        public static let firmwareProperty = KBlinkProperty<[String: String]>(interface, "Firmware")
        /// The `Driver` property (`s`).
        public static let driverProperty = KBlinkProperty<String>(interface, "Driver")
        /// The `Health` property (`s`, ``KeyboardHealth``).
        public static let healthProperty = KBlinkProperty<KeyboardHealth>(interface, "Health")
        /// The `HealthDetail` property (`s`): the step being tried, or the reason and what to do.
        public static let healthDetailProperty = KBlinkProperty<String>(interface, "HealthDetail")
        /// The `Heals` property (`a(xss)`, ``HealRecord``): the last steps of the healing ladder, newest last.
        public static let healsProperty = KBlinkProperty<[HealRecord]>(interface, "Heals")
        /// The `ReconnectTimes` property (`au`): the last times, in milliseconds, from the link coming up to the
        /// input device existing, newest last.
        public static let reconnectTimesProperty = KBlinkProperty<[UInt32]>(interface, "ReconnectTimes")
        /// The `StudioLock` property (`s`, ``StudioLock``): a ZMK Studio keyboard's lock state, empty for others.
        public static let studioLockProperty = KBlinkProperty<StudioLock>(interface, "StudioLock")

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethodDeclaration] = [
            connect.declaration, disconnect.declaration, forget.declaration, setTrusted.declaration,
            refreshInfo.declaration,
        ]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkPropertyDeclaration] = [
            addressProperty.declaration, nameProperty.declaration, aliasProperty.declaration,
            pairedProperty.declaration, trustedProperty.declaration, connectedProperty.declaration,
            batteryProperty.declaration, firmwareProperty.declaration, driverProperty.declaration,
            healthProperty.declaration, healthDetailProperty.declaration, healsProperty.declaration,
            reconnectTimesProperty.declaration, studioLockProperty.declaration,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignalDeclaration] = []
    }

    /// `org.kblink1.Keymap`.
    public enum Keymap {
        /// The interface's name.
        public static let interface: InterfaceName = "org.kblink1.Keymap"
        /// `GetBindings(s zone, u layer) -> a(ss) bindings`.
        public static let getBindings = KBlinkMethod<KBlinkArguments<String, UInt32>, Reply<[BindingRow]>>(
            interface, "GetBindings", inputs: ["zone", "layer"], output: "bindings", access: .anyone)
        /// `SetBinding(s zone, u layer, s key, s action) -> (sussbs) stored`: the binding as stored
        /// (``StoredBinding``), so that an edit is one call.
        public static let setBinding = KBlinkMethod<
            KBlinkArguments<String, UInt32, String, String>, Reply<StoredBinding>
        >(
            interface, "SetBinding", inputs: ["zone", "layer", "key", "action"], output: "stored",
            access: .requires(.editKeymap))
        /// `Undo()`.
        public static let undo = KBlinkMethod<NoArguments, NoReply>(
            interface, "Undo", access: .requires(.editKeymap))
        /// `Redo()`.
        public static let redo = KBlinkMethod<NoArguments, NoReply>(
            interface, "Redo", access: .requires(.editKeymap))
        /// `Diff() -> a(sussss) changes` (``DiffRow``).
        public static let diff = KBlinkMethod<NoArguments, Reply<[DiffRow]>>(
            interface, "Diff", output: "changes", access: .anyone)
        /// `Discard()`.
        public static let discard = KBlinkMethod<NoArguments, NoReply>(
            interface, "Discard", access: .requires(.editKeymap))
        /// `SetMacro(s name, s definition)`.
        public static let setMacro = KBlinkMethod<KBlinkArguments<String, String>, NoReply>(
            interface, "SetMacro", inputs: ["name", "definition"], access: .requires(.editKeymap))
        /// `RemoveMacro(s name)`.
        public static let removeMacro = KBlinkMethod<KBlinkArguments<String>, NoReply>(
            interface, "RemoveMacro", inputs: ["name"], access: .requires(.editKeymap))
        /// `ExportProfile() -> s json`.
        public static let exportProfile = KBlinkMethod<NoArguments, Reply<String>>(
            interface, "ExportProfile", output: "json", access: .requires(.readMacros))
        /// `GetMacros() -> a{ss} macros`: every macro's name and text, for callers allowed `read-macros`.
        public static let getMacros = KBlinkMethod<NoArguments, Reply<[String: String]>>(
            interface, "GetMacros", output: "macros", access: .requires(.readMacros))
        /// `ImportProfile(s json, a{sv} options) -> a{sv} result` (``ProfileImportRequest``,
        /// ``ProfileImportReport``).
        public static let importProfile = KBlinkMethod<
            KBlinkArguments<String, ProfileImportRequest>, Reply<ProfileImportReport>
        >(
            interface, "ImportProfile", inputs: ["json", "options"], output: "result", access: .requires(.editKeymap),
            maximumBodySize: ProfileImportRequest.maximumProfileBytes + (64 << 10))
        /// `AddLayer(u layer)`.
        public static let addLayer = KBlinkMethod<KBlinkArguments<UInt32>, NoReply>(
            interface, "AddLayer", inputs: ["layer"], access: .requires(.editKeymap))
        /// `RemoveLayer(u layer)`.
        public static let removeLayer = KBlinkMethod<KBlinkArguments<UInt32>, NoReply>(
            interface, "RemoveLayer", inputs: ["layer"], access: .requires(.editKeymap))
        /// `MoveLayer(u from, u to)`.
        public static let moveLayer = KBlinkMethod<KBlinkArguments<UInt32, UInt32>, NoReply>(
            interface, "MoveLayer", inputs: ["from", "to"], access: .requires(.editKeymap))
        /// `CopyLayer(u from, u to)`.
        public static let copyLayer = KBlinkMethod<KBlinkArguments<UInt32, UInt32>, NoReply>(
            interface, "CopyLayer", inputs: ["from", "to"], access: .requires(.editKeymap))
        /// `RenameLayer(u layer, s name)`: an empty name clears it.
        public static let renameLayer = KBlinkMethod<KBlinkArguments<UInt32, String>, NoReply>(
            interface, "RenameLayer", inputs: ["layer", "name"], access: .requires(.editKeymap))
        /// `CheckAction(s action) -> a{sv} result`: whether the keyboard's firmware can hold an action, answered as a
        /// dry-run `Push` answers (``PushReport``, its `problems`); nothing is written.
        public static let checkAction = KBlinkMethod<KBlinkArguments<String>, Reply<PushReport>>(
            interface, "CheckAction", inputs: ["action"], output: "result", access: .requires(.editKeymap))
        /// `GetKeys() -> a(ssdddd) keys` (``KeyGeometry``).
        public static let getKeys = KBlinkMethod<NoArguments, Reply<[KeyGeometry]>>(
            interface, "GetKeys", output: "keys", access: .anyone)
        /// `Push(a{sv} options) -> a{sv} result` (``PushRequest``, ``PushReport``).
        public static let push = KBlinkMethod<KBlinkArguments<PushRequest>, Reply<PushReport>>(
            interface, "Push", inputs: ["options"], output: "result", access: .requires(.writeFirmware))
        /// `Pull() -> a{sv} result` (``PullReport``).
        public static let pull = KBlinkMethod<NoArguments, Reply<PullReport>>(
            interface, "Pull", output: "result", access: .requires(.writeFirmware))
        /// `GetPhysicalLayouts() -> a(sub) layouts` (``PhysicalLayoutEntry``): the physical layouts the keyboard's
        /// firmware knows (ZMK Studio), read from the keyboard.
        public static let getPhysicalLayouts = KBlinkMethod<NoArguments, Reply<[PhysicalLayoutEntry]>>(
            interface, "GetPhysicalLayouts", output: "layouts", access: .requires(.writeFirmware))
        /// `SetPhysicalLayout(u index, b force) -> a{sv} result` (``PullReport``): makes the keyboard's physical
        /// layout at `index` the active one and saves it, then reads the keymap again, as `Pull` does; refused
        /// while the draft has edits a push has not written, unless `force`.
        public static let setPhysicalLayout = KBlinkMethod<KBlinkArguments<UInt32, Bool>, Reply<PullReport>>(
            interface, "SetPhysicalLayout", inputs: ["index", "force"], output: "result",
            access: .requires(.writeFirmware))
        /// The `Layout` property (`s`): changes when a layout added for the keyboard's IDs applies to it.
        public static let layoutProperty = KBlinkProperty<String>(interface, "Layout")
        /// The `Zones` property (`as`): changes with `Layout`.
        public static let zonesProperty = KBlinkProperty<[String]>(interface, "Zones")
        /// The `CurrentZone` property (`s`, readwrite).
        public static let currentZoneProperty = KBlinkProperty<String>(
            interface, "CurrentZone", access: .readWrite, writableWith: .editKeymap)
        /// The `Layers` property (`u`).
        public static let layersProperty = KBlinkProperty<UInt32>(interface, "Layers")
        /// The `LayerNames` property (`as`): per layer of the draft, its name (empty for a layer without one).
        public static let layerNamesProperty = KBlinkProperty<[String]>(interface, "LayerNames")
        /// The `CanUndo` property (`b`).
        public static let canUndoProperty = KBlinkProperty<Bool>(interface, "CanUndo")
        /// The `CanRedo` property (`b`).
        public static let canRedoProperty = KBlinkProperty<Bool>(interface, "CanRedo")
        /// The `Dirty` property (`b`).
        public static let dirtyProperty = KBlinkProperty<Bool>(interface, "Dirty")
        /// The `Macros` property (`a{ss}`): every macro's name, its text withheld (empty); `GetMacros` gives the text.
        public static let macrosProperty = KBlinkProperty<[String: String]>(interface, "Macros")
        /// The `ApplyOnConnect` property (`b`, readwrite).
        public static let applyOnConnectProperty = KBlinkProperty<Bool>(
            interface, "ApplyOnConnect", access: .readWrite, writableWith: .writeFirmware)
        /// The `BaseOrigin` property (`s`): where the draft's base came from: `default` (kblink's default keymap for
        /// the layout; the keyboard was never read), `keyboard` (read from it) or `pushed`.
        public static let baseOriginProperty = KBlinkProperty<String>(interface, "BaseOrigin")
        /// The `BaseSince` property (`t`): when the base was read or pushed, seconds since 1970; 0 when not known.
        public static let baseSinceProperty = KBlinkProperty<UInt64>(interface, "BaseSince")
        /// The `PushProgress(u done, u total)` signal (``PushProgress``).
        public static let pushProgressSignal = KBlinkSignal<PushProgress>(interface, "PushProgress")
        /// The `Reapplied(a(usss) changes)` signal (``Reapplied``).
        public static let reappliedSignal = KBlinkSignal<Reapplied>(interface, "Reapplied")

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethodDeclaration] = [
            getBindings.declaration, setBinding.declaration, undo.declaration, redo.declaration, diff.declaration,
            discard.declaration, setMacro.declaration, removeMacro.declaration, getMacros.declaration,
            exportProfile.declaration, importProfile.declaration, getKeys.declaration, push.declaration,
            pull.declaration, addLayer.declaration, removeLayer.declaration, moveLayer.declaration,
            copyLayer.declaration, renameLayer.declaration, checkAction.declaration, getPhysicalLayouts.declaration,
            setPhysicalLayout.declaration,
        ]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkPropertyDeclaration] = [
            layoutProperty.declaration, zonesProperty.declaration, currentZoneProperty.declaration,
            layersProperty.declaration, canUndoProperty.declaration, canRedoProperty.declaration,
            dirtyProperty.declaration, macrosProperty.declaration, applyOnConnectProperty.declaration,
            baseOriginProperty.declaration, baseSinceProperty.declaration, layerNamesProperty.declaration,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignalDeclaration] = [
            pushProgressSignal.declaration, reappliedSignal.declaration,
        ]
    }
}
