import KeyboardLinkDBus
import KeyboardLinkSupport

/// The `org.kblink1` API, written once: every method, property and signal with its interface, name and the
/// names and D-Bus types of its arguments. The daemon declares its objects from these values and the client calls
/// with them, so the two cannot disagree; `ContractTests` checks them against `docs/dbus/org.kblink1.xml`.
public enum KBlinkContract {
    /// `org.kblink1.Manager`.
    public enum Manager {
        /// The interface's name.
        public static let interface = InterfaceName(trusted: "org.kblink1.Manager")
        /// `StartDiscovery()`.
        public static let startDiscovery = KBlinkMethod(interface, "StartDiscovery", access: .requires(.pair))
        /// `StopDiscovery()`.
        public static let stopDiscovery = KBlinkMethod(interface, "StopDiscovery", access: .requires(.pair))
        /// `ListKeyboards() -> a(osssbbba(sy)a{ss}s) keyboards`.
        public static let listKeyboards = KBlinkMethod(
            interface, "ListKeyboards",
            outputs: [
                DBusArgument(
                    "keyboards",
                    .array(
                        .structure([
                            .objectPath, .string, .string, .string, .boolean, .boolean, .boolean,
                            .array(.structure([.string, .byte])), .dictionary(key: .string, value: .string), .string,
                        ])))
            ], access: .anyone)
        /// `ResolveInsets(a{sv} request) -> a{sv} answer`.
        public static let resolveInsets = KBlinkMethod(
            interface, "ResolveInsets", inputs: [DBusArgument("request", .dictionary(key: .string, value: .variant))],
            outputs: [DBusArgument("answer", .dictionary(key: .string, value: .variant))], access: .anyone)
        /// `Pair(s device) -> o keyboard`.
        public static let pair = KBlinkMethod(
            interface, "Pair", inputs: [DBusArgument("device", .string)],
            outputs: [DBusArgument("keyboard", .objectPath)], access: .requires(.pair))
        /// `CancelPairing(s device)`.
        public static let cancelPairing = KBlinkMethod(
            interface, "CancelPairing", inputs: [DBusArgument("device", .string)], access: .requires(.pair))
        /// `ConfirmPairing(s device, b accept)`: the `Pair` caller's answer to a `confirm-passkey` or `authorize`
        /// prompt.
        public static let confirmPairing = KBlinkMethod(
            interface, "ConfirmPairing", inputs: [DBusArgument("device", .string), DBusArgument("accept", .boolean)],
            access: .requires(.pair))
        /// The `Version` property (`s`, const).
        public static let versionProperty = KBlinkProperty(interface, "Version", .string, changes: .const)
        /// The `HardwareKeyboardAttached` property (`b`).
        public static let hardwareKeyboardAttachedProperty = KBlinkProperty(
            interface, "HardwareKeyboardAttached", .boolean)
        /// The `HardwareKeyboards` property (`a(sss)`).
        public static let hardwareKeyboardsProperty = KBlinkProperty(
            interface, "HardwareKeyboards", .array(.structure([.string, .string, .string])))
        /// The `HardwareKeyboardReasons` property (`a(sssbs)`).
        public static let hardwareKeyboardReasonsProperty = KBlinkProperty(
            interface, "HardwareKeyboardReasons",
            .array(.structure([.string, .string, .string, .boolean, .string])))
        /// The `BluetoothAvailable` property (`b`).
        public static let bluetoothAvailableProperty = KBlinkProperty(interface, "BluetoothAvailable", .boolean)
        /// The `BlueZRunning` property (`b`).
        public static let blueZRunningProperty = KBlinkProperty(interface, "BlueZRunning", .boolean)
        /// The `Discovering` property (`b`).
        public static let discoveringProperty = KBlinkProperty(interface, "Discovering", .boolean)
        /// The `PairingPrompt` signal.
        public static let pairingPromptSignal = KBlinkSignal(
            interface, "PairingPrompt",
            arguments: [
                DBusArgument("keyboard", .objectPath), DBusArgument("kind", .string), DBusArgument("code", .string),
                DBusArgument("entered", .uint16),
            ])
        /// The `PairingFinished` signal.
        public static let pairingFinishedSignal = KBlinkSignal(
            interface, "PairingFinished",
            arguments: [
                DBusArgument("keyboard", .objectPath), DBusArgument("ok", .boolean), DBusArgument("error", .string),
                DBusArgument("message", .string),
            ])

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethod] = [
            startDiscovery, stopDiscovery, listKeyboards, resolveInsets, pair, cancelPairing, confirmPairing,
        ]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkProperty] = [
            versionProperty, hardwareKeyboardAttachedProperty, hardwareKeyboardsProperty,
            hardwareKeyboardReasonsProperty, bluetoothAvailableProperty, blueZRunningProperty, discoveringProperty,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignal] = [pairingPromptSignal, pairingFinishedSignal]
    }

    /// `org.kblink1.Keyboard`.
    public enum Keyboard {
        /// The interface's name.
        public static let interface = InterfaceName(trusted: "org.kblink1.Keyboard")
        /// `Connect()`.
        public static let connect = KBlinkMethod(interface, "Connect", access: .requires(.pair))
        /// `Disconnect()`.
        public static let disconnect = KBlinkMethod(interface, "Disconnect", access: .requires(.pair))
        /// `Forget()`.
        public static let forget = KBlinkMethod(interface, "Forget", access: .requires(.pair))
        /// `SetTrusted(b trusted)`.
        public static let setTrusted = KBlinkMethod(
            interface, "SetTrusted", inputs: [DBusArgument("trusted", .boolean)], access: .requires(.pair))
        /// `RefreshInfo()`.
        public static let refreshInfo = KBlinkMethod(interface, "RefreshInfo", access: .anyone)
        /// The `Address` property (`s`, const).
        public static let addressProperty = KBlinkProperty(interface, "Address", .string, changes: .const)
        /// The `Name` property (`s`).
        public static let nameProperty = KBlinkProperty(interface, "Name", .string)
        /// The `Alias` property (`s`).
        public static let aliasProperty = KBlinkProperty(interface, "Alias", .string)
        /// The `Paired` property (`b`).
        public static let pairedProperty = KBlinkProperty(interface, "Paired", .boolean)
        /// The `Trusted` property (`b`).
        public static let trustedProperty = KBlinkProperty(interface, "Trusted", .boolean)
        /// The `Connected` property (`b`).
        public static let connectedProperty = KBlinkProperty(interface, "Connected", .boolean)
        /// The `Battery` property (`a(sy)`).
        public static let batteryProperty = KBlinkProperty(interface, "Battery", .array(.structure([.string, .byte])))
        /// The `Firmware` property (`a{ss}`).
        public static let firmwareProperty = KBlinkProperty(
            interface, "Firmware", .dictionary(key: .string, value: .string))
        /// The `Driver` property (`s`).
        public static let driverProperty = KBlinkProperty(interface, "Driver", .string)

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethod] = [connect, disconnect, forget, setTrusted, refreshInfo]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkProperty] = [
            addressProperty, nameProperty, aliasProperty, pairedProperty, trustedProperty, connectedProperty,
            batteryProperty, firmwareProperty, driverProperty,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignal] = []
    }

    /// `org.kblink1.Keymap`.
    public enum Keymap {
        /// The interface's name.
        public static let interface = InterfaceName(trusted: "org.kblink1.Keymap")
        /// `GetBindings(s zone, u layer) -> a(ss) bindings`.
        public static let getBindings = KBlinkMethod(
            interface, "GetBindings", inputs: [DBusArgument("zone", .string), DBusArgument("layer", .uint32)],
            outputs: [DBusArgument("bindings", .array(.structure([.string, .string])))], access: .anyone)
        /// `SetBinding(s zone, u layer, s key, s action)`.
        public static let setBinding = KBlinkMethod(
            interface, "SetBinding",
            inputs: [
                DBusArgument("zone", .string), DBusArgument("layer", .uint32), DBusArgument("key", .string),
                DBusArgument("action", .string),
            ], access: .requires(.editKeymap))
        /// `Undo()`.
        public static let undo = KBlinkMethod(interface, "Undo", access: .requires(.editKeymap))
        /// `Redo()`.
        public static let redo = KBlinkMethod(interface, "Redo", access: .requires(.editKeymap))
        /// `Diff() -> a(sussss) changes`.
        public static let diff = KBlinkMethod(
            interface, "Diff",
            outputs: [
                DBusArgument("changes", .array(.structure([.string, .uint32, .string, .string, .string, .string])))
            ], access: .anyone)
        /// `Discard()`.
        public static let discard = KBlinkMethod(interface, "Discard", access: .requires(.editKeymap))
        /// `SetMacro(s name, s definition)`.
        public static let setMacro = KBlinkMethod(
            interface, "SetMacro", inputs: [DBusArgument("name", .string), DBusArgument("definition", .string)],
            access: .requires(.editKeymap))
        /// `RemoveMacro(s name)`.
        public static let removeMacro = KBlinkMethod(
            interface, "RemoveMacro", inputs: [DBusArgument("name", .string)], access: .requires(.editKeymap))
        /// `ExportProfile() -> s json`.
        public static let exportProfile = KBlinkMethod(
            interface, "ExportProfile", outputs: [DBusArgument("json", .string)], access: .requires(.readMacros))
        /// `GetMacros() -> a{ss} macros`: every macro's name and text, for callers allowed `read-macros`.
        public static let getMacros = KBlinkMethod(
            interface, "GetMacros", outputs: [DBusArgument("macros", .dictionary(key: .string, value: .string))],
            access: .requires(.readMacros))
        /// `ImportProfile(s json, a{sv} options) -> a{sv} result`.
        public static let importProfile = KBlinkMethod(
            interface, "ImportProfile",
            inputs: [
                DBusArgument("json", .string), DBusArgument("options", .dictionary(key: .string, value: .variant)),
            ],
            outputs: [DBusArgument("result", .dictionary(key: .string, value: .variant))],
            access: .requires(.editKeymap), maximumBodySize: FileStore.maximumReadSize + (64 << 10))
        /// `AddLayer(u layer)`.
        public static let addLayer = KBlinkMethod(
            interface, "AddLayer", inputs: [DBusArgument("layer", .uint32)], access: .requires(.editKeymap))
        /// `RemoveLayer(u layer)`.
        public static let removeLayer = KBlinkMethod(
            interface, "RemoveLayer", inputs: [DBusArgument("layer", .uint32)], access: .requires(.editKeymap))
        /// `CheckAction(s action) -> a{sv} result`: whether the keyboard's firmware can hold an action, answered as a
        /// dry-run `Push` answers (its `problems`); nothing is written.
        public static let checkAction = KBlinkMethod(
            interface, "CheckAction", inputs: [DBusArgument("action", .string)],
            outputs: [DBusArgument("result", .dictionary(key: .string, value: .variant))],
            access: .requires(.editKeymap))
        /// `GetKeys() -> a(ssdddd) keys`.
        public static let getKeys = KBlinkMethod(
            interface, "GetKeys",
            outputs: [
                DBusArgument("keys", .array(.structure([.string, .string, .double, .double, .double, .double])))
            ], access: .anyone)
        /// `Push(a{sv} options) -> a{sv} result`.
        public static let push = KBlinkMethod(
            interface, "Push", inputs: [DBusArgument("options", .dictionary(key: .string, value: .variant))],
            outputs: [DBusArgument("result", .dictionary(key: .string, value: .variant))],
            access: .requires(.writeFirmware))
        /// `Pull() -> a{sv} result`.
        public static let pull = KBlinkMethod(
            interface, "Pull", outputs: [DBusArgument("result", .dictionary(key: .string, value: .variant))],
            access: .requires(.writeFirmware))
        /// The `Layout` property (`s`, const).
        public static let layoutProperty = KBlinkProperty(interface, "Layout", .string, changes: .const)
        /// The `Zones` property (`as`, const).
        public static let zonesProperty = KBlinkProperty(interface, "Zones", .array(.string), changes: .const)
        /// The `CurrentZone` property (`s`, readwrite).
        public static let currentZoneProperty = KBlinkProperty(
            interface, "CurrentZone", .string, access: .readWrite, writableWith: .editKeymap)
        /// The `Layers` property (`u`).
        public static let layersProperty = KBlinkProperty(interface, "Layers", .uint32)
        /// The `CanUndo` property (`b`).
        public static let canUndoProperty = KBlinkProperty(interface, "CanUndo", .boolean)
        /// The `CanRedo` property (`b`).
        public static let canRedoProperty = KBlinkProperty(interface, "CanRedo", .boolean)
        /// The `Dirty` property (`b`).
        public static let dirtyProperty = KBlinkProperty(interface, "Dirty", .boolean)
        /// The `Macros` property (`a{ss}`): every macro's name, its text withheld (empty); `GetMacros` gives the text.
        public static let macrosProperty = KBlinkProperty(
            interface, "Macros", .dictionary(key: .string, value: .string))
        /// The `ApplyOnConnect` property (`b`, readwrite).
        public static let applyOnConnectProperty = KBlinkProperty(
            interface, "ApplyOnConnect", .boolean, access: .readWrite, writableWith: .writeFirmware)
        /// The `BaseOrigin` property (`s`): where the draft's base came from: `default` (kblink's default keymap for
        /// the layout; the keyboard was never read), `keyboard` (read from it) or `pushed`.
        public static let baseOriginProperty = KBlinkProperty(interface, "BaseOrigin", .string)
        /// The `BaseSince` property (`t`): when the base was read or pushed, seconds since 1970; 0 when not known.
        public static let baseSinceProperty = KBlinkProperty(interface, "BaseSince", .uint64)
        /// The `PushProgress` signal.
        public static let pushProgressSignal = KBlinkSignal(
            interface, "PushProgress", arguments: [DBusArgument("done", .uint32), DBusArgument("total", .uint32)])
        /// The `Reapplied` signal.
        public static let reappliedSignal = KBlinkSignal(
            interface, "Reapplied",
            arguments: [DBusArgument("changes", .array(.structure([.uint32, .string, .string, .string])))])

        /// Every method, in the order of the XML.
        public static let methods: [KBlinkMethod] = [
            getBindings, setBinding, undo, redo, diff, discard, setMacro, removeMacro, getMacros, exportProfile,
            importProfile, getKeys, push, pull, addLayer, removeLayer, checkAction,
        ]
        /// Every property, in the order of the XML.
        public static let properties: [KBlinkProperty] = [
            layoutProperty, zonesProperty, currentZoneProperty, layersProperty, canUndoProperty, canRedoProperty,
            dirtyProperty, macrosProperty, applyOnConnectProperty, baseOriginProperty, baseSinceProperty,
        ]
        /// Every signal, in the order of the XML.
        public static let signals: [KBlinkSignal] = [pushProgressSignal, reappliedSignal]
    }
}
