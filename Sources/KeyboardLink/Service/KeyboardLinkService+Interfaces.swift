extension KeyboardLinkService {
    /// Checks a device argument, refusing empty or overlong text before any lookup.
    static func deviceArgument(_ text: String) throws -> String {
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
                DBusMethod("StartDiscovery", arguments: []) { [weak self] () in try await self?.startDiscovery() },
                DBusMethod("StopDiscovery", arguments: []) { [weak self] () in try await self?.stopDiscovery() },
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
                    try InsetRequestCodec.checkSize(of: call.message)
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

    /// `org.kblink1.Keyboard` for one keyboard: its own property values, the shared methods.
    func keyboardInterface(_ state: KeyboardState) -> DBusInterface {
        var properties: [DBusProperty] = []
        properties.reserveCapacity(state.propertyValues.count)
        for (name, value) in state.propertyValues {
            let constant = name == "Address"
            properties.append(DBusProperty(name, type: value.type, changes: constant ? .const : .emits, initial: value))
        }
        return DBusInterface(
            KBlink.keyboardInterface, methods: sharedKeyboardMembers().keyboardMethods,
            properties: properties)
    }

    /// The members every keyboard's object shares, built once.
    func sharedKeyboardMembers() -> SharedKeyboardMembers {
        if let built = sharedMembers { return built }
        let setters = Self.makeKeymapSetters(keymaps)
        let built = SharedKeyboardMembers(
            keyboardMethods: makeKeyboardMethods(),
            keymapMethods: Self.makeKeymapMethods(keymaps) + [makePushMethod(), makePullMethod()],
            keymapSignals: Self.pushSignals + Self.reapplySignals,
            setCurrentZone: setters.currentZone, setApplyOnConnect: setters.applyOnConnect)
        sharedMembers = built
        return built
    }

    /// The methods of `org.kblink1.Keyboard`; each handler finds its keyboard from the object path it was called on.
    private func makeKeyboardMethods() -> [DBusMethod] {
        [
            DBusMethod("Connect", arguments: []) { [weak self] (call: MethodCallContext) in
                try await self?.connect(try call.keyboardAddress())
            },
            DBusMethod("Disconnect", arguments: []) { [weak self] (call: MethodCallContext) in
                try await self?.disconnect(try call.keyboardAddress())
            },
            DBusMethod("Forget", arguments: []) { [weak self] (call: MethodCallContext) in
                try await self?.forget(try call.keyboardAddress())
            },
            DBusMethod("SetTrusted", arguments: ["trusted"]) { [weak self] (call: MethodCallContext, trusted: Bool) in
                try await self?.setTrusted(try call.keyboardAddress(), trusted)
            },
            DBusMethod("RefreshInfo", arguments: []) { [weak self] (call: MethodCallContext) in
                try await self?.refreshInfo(try call.keyboardAddress())
            },
        ]
    }
}

/// Methods and signals that every keyboard's object shares: their handlers take the keyboard from the object
/// path of the call, so a thousand keyboards hold one copy of each declaration and closure, not a thousand.
struct SharedKeyboardMembers: Sendable {
    var keyboardMethods: [DBusMethod]
    var keymapMethods: [DBusMethod]
    var keymapSignals: [DBusSignal]
    var setCurrentZone: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
    var setApplyOnConnect: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
}

extension MethodInvocation {
    /// The keyboard whose object was called: the address in the last element of the object path
    /// (`/org/kblink1/keyboards/dev_AA_BB_CC_DD_EE_FF`).
    /// - Throws: `org.kblink1.Error.NotFound` when the path names no keyboard (the server only routes calls to
    ///   exported keyboard objects, so this means the object went away).
    func keyboardAddress() throws -> BluetoothAddress {
        try MethodCallContext(self).keyboardAddress()
    }
}

extension MethodCallContext {
    /// The keyboard whose object the call was made on.
    func keyboardAddress() throws -> BluetoothAddress {
        guard let address = try? BluetoothAddress(devicePath: path) else {
            throw KBlinkError.notFound("\(path.rawValue) is not a keyboard")
        }
        return address
    }
}
