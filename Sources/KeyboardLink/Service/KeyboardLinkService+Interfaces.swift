import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

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
        typealias Manager = KBlinkContract.Manager
        let listCache = KeyboardListCache()
        return DBusInterface(
            KBlink.managerInterface,
            methods: [
                DBusMethod(Manager.startDiscovery) { [weak self] (_: MethodCallContext) in
                    try await self?.startDiscovery()
                },
                DBusMethod(Manager.stopDiscovery) { [weak self] (_: MethodCallContext) in
                    try await self?.stopDiscovery()
                },
                // What `kblink list` needs in one compact typed reply (docs/dbus-api.md).
                DBusMethod(Manager.listKeyboards) { [weak self] (_: MethodInvocation) in
                    [await self?.keyboardList(cache: listCache) ?? .array(KeyboardState.listEntryType, [])]
                },
                DBusMethod(Manager.resolveInsets) { [weak self] (call: MethodInvocation) in
                    let dictionary = try call.decode([String: DBusValue].self)
                    let attached = await self?.presence().attached ?? false
                    let request = try InsetRequestCodec.request(from: dictionary, hardwareKeyboard: attached)
                    return [InsetRequestCodec.dictionary(from: InsetResolver.resolve(request))]
                },
            ] + pairingMethods(),
            properties: [
                DBusProperty(Manager.versionProperty, initial: .string(KBlink.version)),
                DBusProperty(Manager.hardwareKeyboardAttachedProperty, initial: .boolean(false)),
                DBusProperty(
                    Manager.hardwareKeyboardsProperty, initial: .array(.structure([.string, .string, .string]), [])),
                DBusProperty(Manager.bluetoothAvailableProperty, initial: .boolean(false)),
                DBusProperty(Manager.blueZRunningProperty, initial: .boolean(false)),
                DBusProperty(Manager.discoveringProperty, initial: .boolean(false)),
            ],
            signals: Manager.signals.map(DBusSignal.init))
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
        for (property, value) in state.propertyValues {
            properties.append(DBusProperty(property, initial: value))
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
            keymapSignals: KBlinkContract.Keymap.signals.map(DBusSignal.init),
            setCurrentZone: setters.currentZone, setApplyOnConnect: setters.applyOnConnect)
        sharedMembers = built
        return built
    }

    /// The methods of `org.kblink1.Keyboard`; each handler finds its keyboard from the object path it was called on.
    private func makeKeyboardMethods() -> [DBusMethod] {
        typealias Keyboard = KBlinkContract.Keyboard
        return [
            DBusMethod(Keyboard.connect) { [weak self] (call: MethodCallContext) in
                try await self?.connect(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.disconnect) { [weak self] (call: MethodCallContext) in
                try await self?.disconnect(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.forget) { [weak self] (call: MethodCallContext) in
                try await self?.forget(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.setTrusted) { [weak self] (call: MethodCallContext, trusted: Bool) in
                try await self?.setTrusted(try call.keyboardAddress(), trusted)
            },
            DBusMethod(Keyboard.refreshInfo) { [weak self] (call: MethodCallContext) in
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
