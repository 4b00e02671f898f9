import InsetCore
import KBlinkAPI
import KeyboardLinkDBus

/// `org.kblink1.Manager` at `/org/kblink1`: decodes each call, hands it to the job that does it (the
/// ``KeyboardRegistry`` for discovery, the list and presence, ``KeyboardPairing`` for pairing, ``KeymapSessions``
/// for the layouts `AddLayout` taught, the keymap's edit for `SetKeyboardBinding`) and encodes the answer.
enum ManagerObject {
    /// The interface as declared in docs/dbus-api.md; the handlers hold the jobs weakly (the connection that holds
    /// the handlers is held by them).
    static func interface(
        registry: KeyboardRegistry, pairing: KeyboardPairing, keymaps: KeymapSessions, writer: KeymapWriter,
        access: AccessControl
    ) -> DBusInterface {
        typealias Manager = KBlinkContract.Manager
        let listCache = KeyboardListCache()
        let bindingEdit = BindingEdit(keymaps, writer)
        let methods: [DBusMethod] = [
            DBusMethod(Manager.startDiscovery) { [weak registry] (_: MethodCallContext) in
                try await registry?.startDiscovery()
            },
            DBusMethod(Manager.stopDiscovery) { [weak registry] (_: MethodCallContext) in
                try await registry?.stopDiscovery()
            },
            // What `kblink list` needs in one compact typed reply (docs/dbus-api.md).
            DBusMethod(Manager.listKeyboards) { [weak registry] (_: MethodInvocation) in
                [await registry?.keyboardList(cache: listCache) ?? .array(KeyboardSummary.dbusType, [])]
            },
            DBusMethod(Manager.healthSummary) { [weak registry] (_: MethodCallContext) in
                await registry?.healthSummary() ?? KeyboardHealthSummary(counts: [:], needingAttention: [])
            },
            DBusMethod(Manager.resolveInsets) { [weak registry] (call: MethodInvocation) in
                let dictionary = try call.decode([String: DBusValue].self)
                let attached = await registry?.presence().attached ?? false
                let request = try InsetRequestCodec.request(from: dictionary, hardwareKeyboard: attached)
                return [InsetRequestCodec.dictionary(from: InsetResolver.resolve(request))]
            },
            DBusMethod(Manager.pair) { (call: MethodCallContext, device: String) -> ObjectPath in
                try await pairing.pair(try KeyboardPairing.deviceArgument(device), caller: call.sender)
            },
            DBusMethod(Manager.cancelPairing) { (call: MethodCallContext, device: String) in
                try await pairing.cancel(try KeyboardPairing.deviceArgument(device), caller: call.sender)
            },
            DBusMethod(Manager.confirmPairing) { (call: MethodCallContext, device: String, accept: Bool) in
                try await pairing.confirm(
                    try KeyboardPairing.deviceArgument(device), accept: accept, caller: call.sender)
            },
            DBusMethod(Manager.addLayout) { [weak keymaps] (_: MethodCallContext, layout: KeyboardLayoutDefinition) in
                guard let keymaps else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await keymaps.addLayout(layout)
            },
            DBusMethod(Manager.removeLayout) { [weak keymaps] (_: MethodCallContext, id: String) in
                guard let keymaps else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await keymaps.removeLayout(id)
            },
            DBusMethod(Manager.listLayouts) { [weak keymaps] (_: MethodCallContext) in
                await keymaps?.addedLayoutSummaries() ?? []
            },
            DBusMethod(Manager.getLayout) { [weak keymaps] (_: MethodCallContext, id: String) in
                guard let keymaps else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await keymaps.addedLayoutDefinition(id)
            },
            DBusMethod(Manager.setKeyboardBinding) {
                [weak registry, weak keymaps]
                (
                    call: MethodCallContext, device: String, zone: String, layer: UInt32, key: String, action: String
                ) -> KeyboardBindingEdit in
                guard let registry, let keymaps else { throw KBlinkError.failed("kblinkd is stopping") }
                let keyboard = try await registry.keyboard(matching: try KeyboardPairing.deviceArgument(device))
                try await access.confirm(.editKeymap, for: call, keyboard: keyboard.address)
                guard await keymaps.hasKeymap(keyboard.address) else {
                    throw KBlinkError.notSupported(
                        keyboard.paired
                            ? "\(keyboard.alias) has no keymap: kblinkd does not know its layout"
                            : "\(keyboard.alias) has no keymap: it is not paired; pair it first with "
                                + "'kblink pair \(keyboard.address)'")
                }
                let stored = try await bindingEdit.set(
                    keyboard.address, zone: zone, layer: layer, key: key, action: action)
                return KeyboardBindingEdit(
                    address: keyboard.address.description, alias: keyboard.alias, stored: stored)
            },
        ]
        return DBusInterface(
            KBlink.managerInterface,
            methods: access.guarded(methods, contract: Manager.methods),
            properties: [
                DBusProperty(Manager.versionProperty, initial: KBlink.version),
                DBusProperty(Manager.hardwareKeyboardAttachedProperty, initial: false),
                DBusProperty(Manager.hardwareKeyboardsProperty, initial: []),
                DBusProperty(Manager.hardwareKeyboardReasonsProperty, initial: []),
                DBusProperty(Manager.bluetoothAvailableProperty, initial: false),
                DBusProperty(Manager.blueZRunningProperty, initial: false),
                DBusProperty(Manager.discoveringProperty, initial: false),
            ],
            signals: Manager.signals.map(DBusSignal.init))
    }
}
