extension KeyboardLinkService {
    /// Parses a device argument, refusing empty or overlong text before any lookup.
    static func deviceArgument(_ call: MethodInvocation) throws -> String {
        let text = try call.decode(String.self)
        guard !text.isEmpty, text.utf8.count <= 248 else {
            throw KBlinkError.invalidArgs("give a keyboard address (AA:BB:CC:DD:EE:FF) or a name of at most 248 bytes")
        }
        return text
    }

    /// `org.kblink1.Manager` as declared in docs/dbus-api.md.
    func managerInterface() -> DBusInterface {
        let listCache = KeyboardListCache()
        return DBusInterface(
            KBlink.managerInterface,
            methods: [
                DBusMethod("StartDiscovery") { [weak self] _ in
                    try await self?.startDiscovery()
                    return []
                },
                DBusMethod("StopDiscovery") { [weak self] _ in
                    try await self?.stopDiscovery()
                    return []
                },
                // Added to the contract: what `kblink list` needs in one compact typed reply (docs/dbus-api.md).
                DBusMethod(
                    "ListKeyboards", outputs: [DBusArgument("keyboards", .array(KeyboardState.listEntryType))]
                ) { [weak self] _ in
                    [await self?.keyboardList(cache: listCache) ?? .array(KeyboardState.listEntryType, [])]
                },
                DBusMethod(
                    "ResolveInsets", inputs: [DBusArgument("request", .dictionary(key: .string, value: .variant))],
                    outputs: [DBusArgument("answer", .dictionary(key: .string, value: .variant))]
                ) { [weak self] call in
                    let dictionary = try call.decode([String: DBusValue].self)
                    let attached = await self?.presence().attached ?? false
                    let request = try InsetRequestCodec.request(from: dictionary, hardwareKeyboard: attached)
                    return [InsetRequestCodec.dictionary(from: InsetResolver.resolve(request))]
                },
            ] + pairingMethods(),
            properties: [
                DBusProperty("Version", type: .string, changes: .const, initial: .string(KBlink.version)),
                DBusProperty("HardwareKeyboardAttached", type: .boolean, initial: .boolean(false)),
                DBusProperty(
                    "HardwareKeyboards", type: .array(.structure([.string, .string, .string])),
                    initial: .array(.structure([.string, .string, .string]), [])),
                DBusProperty("BluetoothAvailable", type: .boolean, initial: .boolean(false)),
                DBusProperty("BlueZRunning", type: .boolean, initial: .boolean(false)),
                DBusProperty("Discovering", type: .boolean, initial: .boolean(false)),
            ],
            signals: PairingSignals.declarations)
    }

    /// The `ListKeyboards` answer: every exported keyboard, by address; rebuilt only when a keyboard changed.
    func keyboardList(cache: KeyboardListCache) -> DBusValue {
        cache.list(for: keyboards) { keyboards in
            .array(KeyboardState.listEntryType, keyboards.sorted { $0.key < $1.key }.map(\.value.listEntry))
        }
    }

    /// `org.kblink1.Keyboard` for one keyboard.
    func keyboardInterface(_ state: KeyboardState) -> DBusInterface {
        let address = state.address
        var properties: [DBusProperty] = []
        for (name, value) in state.propertyValues {
            let constant = name == "Address"
            properties.append(DBusProperty(name, type: value.type, changes: constant ? .const : .emits, initial: value))
        }
        return DBusInterface(
            KBlink.keyboardInterface,
            methods: [
                DBusMethod("Connect") { [weak self] _ in
                    try await self?.connect(address)
                    return []
                },
                DBusMethod("Disconnect") { [weak self] _ in
                    try await self?.disconnect(address)
                    return []
                },
                DBusMethod("Forget") { [weak self] _ in
                    try await self?.forget(address)
                    return []
                },
                DBusMethod("SetTrusted", inputs: [DBusArgument("trusted", .boolean)]) { [weak self] call in
                    let trusted = try call.decode(Bool.self)
                    try await self?.setTrusted(address, trusted)
                    return []
                },
                DBusMethod("RefreshInfo") { [weak self] _ in
                    try await self?.refreshInfo(address)
                    return []
                },
            ],
            properties: properties)
    }
}
