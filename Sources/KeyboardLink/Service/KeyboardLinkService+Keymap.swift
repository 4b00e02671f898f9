/// `org.kblink1.Keymap` (docs/dbus-api.md): exported beside `org.kblink1.Keyboard` on each keyboard's object when
/// its layout is known, backed by `KeymapSessions`.
extension KeyboardLinkService {
    /// At start: loads the user's layouts from `<state dir>/layouts`.
    func startKeymaps() async {
        await keymaps.loadUserLayouts(from: options.stateDirectory + "/layouts")
        await keymaps.removeExpiredSetAsideProfiles()
    }

    /// After keyboard objects were unexported and exported (and the Manager's properties published, so that
    /// opening profiles never delays them): closes and opens the keyboards' keymap sessions.
    func updateKeymaps(removed: [BluetoothAddress], added: [KeyboardState]) async {
        for address in removed { await detachKeymap(address) }
        for state in added { await attachKeymap(state) }
    }

    /// After a keyboard's object is exported: opens its session (restoring the saved draft) and exports the
    /// `Keymap` interface on the same object.
    func attachKeymap(_ state: KeyboardState) async {
        let path = KBlink.keyboardPath(state.address)
        guard let session = await keymaps.open(state.address, name: state.name, path: path) else { return }
        let settings = await keymaps.settings(for: state.address) ?? ProfileSettings()
        do {
            try await connection.export(keymapInterface(session, settings: settings), at: path)
        } catch {
            log(.error, "cannot export the keymap of \(state.address): \(error)")
            await keymaps.close(state.address)
        }
    }

    /// After a keyboard's object is unexported (which removes the `Keymap` interface too): closes its session.
    func detachKeymap(_ address: BluetoothAddress) async {
        await keymaps.close(address)
    }

    /// The `org.kblink1.Keymap` declaration for one keyboard: the session's current values, the shared methods,
    /// signals and property setters.
    func keymapInterface(_ session: KeymapEditSession, settings: ProfileSettings) -> DBusInterface {
        let values = Dictionary(
            uniqueKeysWithValues: KeymapSessions.changingProperties(of: session, settings: settings))
        func initial(_ name: String) -> DBusValue { values[name] ?? .boolean(false) }
        let shared = sharedKeyboardMembers()
        return DBusInterface(
            KBlink.keymapInterface,
            methods: shared.keymapMethods,
            properties: [
                DBusProperty("Layout", type: .string, changes: .const, initial: .string(session.layout.id.rawValue)),
                DBusProperty(
                    "Zones", type: .array(.string), changes: .const,
                    initial: .array(.string, session.zones.map { .string($0.rawValue) })),
                DBusProperty(
                    "CurrentZone", type: .string, access: .readWrite, initial: initial("CurrentZone"),
                    setter: shared.setCurrentZone),
                DBusProperty("Layers", type: .uint32, initial: initial("Layers")),
                DBusProperty("CanUndo", type: .boolean, initial: initial("CanUndo")),
                DBusProperty("CanRedo", type: .boolean, initial: initial("CanRedo")),
                DBusProperty("Dirty", type: .boolean, initial: initial("Dirty")),
                DBusProperty(
                    "Macros", type: .dictionary(key: .string, value: .string), initial: initial("Macros")),
                DBusProperty(
                    "ApplyOnConnect", type: .boolean, access: .readWrite, initial: initial("ApplyOnConnect"),
                    setter: shared.setApplyOnConnect),
            ],
            signals: shared.keymapSignals)
    }

    /// The setters of `CurrentZone` and `ApplyOnConnect`, shared by every keyboard's object.
    static func makeKeymapSetters(_ keymaps: KeymapSessions) -> (
        currentZone: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue,
        applyOnConnect: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
    ) {
        let sessions = WeakSessions(keymaps)
        return (
            currentZone: { value, call in
                let zone = try String(dbusValue: value)
                try KeymapArgument.check(zone, "CurrentZone", limit: KeymapArgument.zoneLimit)
                let address = try call.keyboardAddress()
                let selected = try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.selectZone(named: zone)
                    return session.currentZone.rawValue
                }
                return .string(selected)
            },
            applyOnConnect: { value, call in
                let wanted = try Bool(dbusValue: value)
                try await sessions.get().setApplyOnConnect(try call.keyboardAddress(), wanted)
                return .boolean(wanted)
            }
        )
    }

    /// The methods of `org.kblink1.Keymap` but `Push` and `Pull`; each handler finds its keyboard from the object
    /// path it was called on.
    static func makeKeymapMethods(_ keymaps: KeymapSessions) -> [DBusMethod] {
        let sessions = WeakSessions(keymaps)
        return [
            DBusMethod(
                "GetBindings", inputs: [DBusArgument("zone", .string), DBusArgument("layer", .uint32)],
                outputs: [DBusArgument("bindings", .array(.structure([.string, .string])))]
            ) { call in
                let address = try call.keyboardAddress()
                let (zone, layerValue) = try call.decode(String.self, UInt32.self)
                try KeymapArgument.check(zone, "zone", limit: KeymapArgument.zoneLimit, allowsEmpty: true)
                let layer = try KeymapArgument.layer(layerValue)
                let rows = try await sessions.get().read(address) { session throws(KeymapError) in
                    try session.bindingTexts(zone: zone.isEmpty ? session.currentZone.rawValue : zone, layer: layer)
                }
                return [
                    .array(
                        .structure([.string, .string]),
                        rows.map { .structure([.string($0.key), .string($0.action)]) })
                ]
            },
            DBusMethod("SetBinding", arguments: ["zone", "layer", "key", "action"]) {
                (call: MethodCallContext, zone: String, layerValue: UInt32, key: String, action: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(zone, "zone", limit: KeymapArgument.zoneLimit, allowsEmpty: true)
                try KeymapArgument.check(key, "key", limit: KeymapArgument.keyLimit)
                try KeymapArgument.check(action, "action", limit: KeymapArgument.actionLimit)
                let layer = try KeymapArgument.layer(layerValue)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.setBinding(zone: zone, layer: layer, key: key, action: action)
                }
            },
            DBusMethod("Undo", arguments: []) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session throws(KeymapError) in try session.undo() }
            },
            DBusMethod("Redo", arguments: []) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session throws(KeymapError) in try session.redo() }
            },
            DBusMethod(
                "Diff",
                outputs: [DBusArgument("changes", .array(Self.diffEntryType))]
            ) { call in
                let address = try call.keyboardAddress()
                let rows = try await sessions.get().read(address) { session in session.diffTexts() }
                return [
                    .array(
                        Self.diffEntryType,
                        rows.map {
                            .structure([
                                .string($0.zone), .uint32(UInt32(clamping: $0.layer)), .string($0.key),
                                .string($0.old), .string($0.new), .string($0.origin),
                            ])
                        })
                ]
            },
            DBusMethod("Discard", arguments: []) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session in session.discard() }
            },
            DBusMethod("SetMacro", arguments: ["name", "definition"]) {
                (call: MethodCallContext, name: String, definition: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(name, "the macro name", limit: KeymapArgument.macroNameLimit)
                try KeymapArgument.check(
                    definition, "the macro definition", limit: KeymapArgument.macroDefinitionLimit)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.setMacro(name: name, definition: definition)
                }
            },
            DBusMethod("RemoveMacro", arguments: ["name"]) { (call: MethodCallContext, name: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(name, "the macro name", limit: KeymapArgument.macroNameLimit)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.removeMacro(name: name)
                }
            },
            DBusMethod("ExportProfile", arguments: [], result: "json") { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                return try await sessions.get().read(address) { session in session.exportProfileJSON() }
            },
            DBusMethod("ImportProfile", arguments: ["json"]) { (call: MethodCallContext, json: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(json, "the profile", limit: KeymapArgument.profileLimit)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.importProfile(json: json)
                }
            },
            DBusMethod("GetKeys", outputs: [DBusArgument("keys", .array(Self.keyEntryType))]) { call in
                let address = try call.keyboardAddress()
                let keys = try await sessions.get().read(address) { session in session.layout.keys }
                return [
                    .array(
                        Self.keyEntryType,
                        keys.map {
                            .structure([
                                .string($0.name.rawValue), .string($0.zone.rawValue), .double($0.frame.x),
                                .double($0.frame.y), .double($0.frame.width), .double($0.frame.height),
                            ])
                        })
                ]
            },
        ]
    }

    /// `Diff()` rows: zone, layer, key, old action, new action, origin.
    static let diffEntryType = DBusType.structure([.string, .uint32, .string, .string, .string, .string])
    /// `GetKeys()` rows: key, zone, x, y, width, height (key units, y downwards).
    static let keyEntryType = DBusType.structure([.string, .string, .double, .double, .double, .double])
}

/// The sessions as the exported handlers hold them: weakly, because the connection that holds the handlers is
/// held by the sessions.
private struct WeakSessions: Sendable {
    private weak var sessions: KeymapSessions?

    init(_ sessions: KeymapSessions) {
        self.sessions = sessions
    }

    /// The sessions.
    /// - Throws: `org.kblink1.Error.Failed` when the daemon is shutting down.
    func get() throws -> KeymapSessions {
        guard let sessions else { throw KBlinkError.failed("kblinkd is stopping") }
        return sessions
    }
}
