import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkKeymap

/// `org.kblink1.Keymap` (docs/dbus-api.md) on each keyboard's object whose layout is known: decodes the arguments,
/// checks their lengths (``KeymapArgument``), hands the edit to ``KeymapSessions`` or the push and pull to
/// ``KeymapWriter``, and encodes the answer.
///
/// The methods, signals and property setters are built once and shared by every keyboard's object: their handlers
/// take the keyboard from the object path of the call, so a thousand keyboards hold one copy of each declaration
/// and closure, not a thousand.
struct KeymapObject: Sendable {
    let methods: [DBusMethod]
    let signals: [DBusSignal]
    let setCurrentZone: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
    let setApplyOnConnect: @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue

    /// Declares the members, their handlers holding the sessions and the writer weakly (the connection that
    /// holds the handlers is held by both).
    init(keymaps: KeymapSessions, writer: KeymapWriter, access: AccessControl) {
        typealias Keymap = KBlinkContract.Keymap
        let setters = Self.setters(keymaps)
        methods = access.guarded(
            Self.methods(keymaps, writer, access)
                + [Self.pushMethod(writer), Self.pullMethod(writer)] + Self.layerMethods(keymaps)
                + [Self.checkActionMethod(writer)] + Self.physicalLayoutMethods(writer),
            contract: Keymap.methods)
        signals = Keymap.signals.map(DBusSignal.init)
        setCurrentZone = access.guardedSetter(Keymap.currentZoneProperty, setters.currentZone)
        setApplyOnConnect = access.guardedSetter(Keymap.applyOnConnectProperty, setters.applyOnConnect)
    }

    /// The interface for one keyboard: the session's current values, the shared methods, signals and setters.
    func interface(_ session: KeymapEditSession, settings: ProfileSettings) -> DBusInterface {
        typealias Keymap = KBlinkContract.Keymap
        let values = Dictionary(
            uniqueKeysWithValues: KeymapSessions.changingProperties(of: session, settings: settings).map {
                ($0.property.name, $0.value)
            })
        func initial<Value>(_ property: KBlinkProperty<Value>) -> DBusValue {
            values[property.name] ?? .boolean(false)
        }
        func declared<Value>(
            _ property: KBlinkProperty<Value>,
            setter: (@Sendable (DBusValue, MethodInvocation) async throws -> DBusValue)? = nil
        ) -> DBusProperty {
            DBusProperty(property.declaration, initial: initial(property), setter: setter)
        }
        return DBusInterface(
            KBlink.keymapInterface,
            methods: methods,
            properties: [
                DBusProperty(Keymap.layoutProperty, initial: session.layout.id.rawValue),
                DBusProperty(Keymap.zonesProperty, initial: session.zones.map(\.rawValue)),
                declared(Keymap.currentZoneProperty, setter: setCurrentZone),
                declared(Keymap.layersProperty),
                declared(Keymap.canUndoProperty),
                declared(Keymap.canRedoProperty),
                declared(Keymap.dirtyProperty),
                declared(Keymap.macrosProperty),
                declared(Keymap.applyOnConnectProperty, setter: setApplyOnConnect),
                declared(Keymap.baseOriginProperty),
                declared(Keymap.baseSinceProperty),
                declared(Keymap.layerNamesProperty),
            ],
            signals: signals)
    }

    /// `SetBinding(s zone, u layer, s key, s action) -> (sussbs)`: stages the binding and answers it as stored, with
    /// what is known without asking the keyboard of whether its firmware can hold the action.
    private static func setBindingMethod(_ keymaps: KeymapSessions, _ writer: KeymapWriter) -> DBusMethod {
        let edit = BindingEdit(keymaps, writer)
        return DBusMethod(KBlinkContract.Keymap.setBinding) {
            (call: MethodCallContext, zone: String, layer: UInt32, key: String, action: String) -> StoredBinding in
            try await edit.set(try call.keyboardAddress(), zone: zone, layer: layer, key: key, action: action)
        }
    }

    /// `Push(a{sv} options) -> a{sv}` (``PushRequest``, ``PushReport``).
    private static func pushMethod(_ writer: KeymapWriter) -> DBusMethod {
        DBusMethod(KBlinkContract.Keymap.push) { [weak writer] (call: MethodCallContext, request: PushRequest) in
            let address = try call.keyboardAddress()
            guard let writer else { throw KBlinkError.failed("kblinkd is stopping") }
            return try await writer.push(address, options: PushOptions(request))
        }
    }

    /// `CheckAction(s action) -> a{sv}`: a push that only asks whether the firmware can hold `action`.
    private static func checkActionMethod(_ writer: KeymapWriter) -> DBusMethod {
        DBusMethod(KBlinkContract.Keymap.checkAction) { [weak writer] (call: MethodCallContext, action: String) in
            let address = try call.keyboardAddress()
            try KeymapArgument.check(action, "action", limit: KeymapArgument.actionLimit)
            var options = PushOptions()
            options.check = action
            guard let writer else { throw KBlinkError.failed("kblinkd is stopping") }
            return try await writer.push(address, options: options)
        }
    }

    /// `Pull() -> a{sv}` (``PullReport``).
    private static func pullMethod(_ writer: KeymapWriter) -> DBusMethod {
        DBusMethod(KBlinkContract.Keymap.pull) { [weak writer] (call: MethodCallContext) in
            let address = try call.keyboardAddress()
            guard let writer else { throw KBlinkError.failed("kblinkd is stopping") }
            return try await writer.pull(address)
        }
    }

    private static func setters(_ keymaps: KeymapSessions) -> (
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
    private static func methods(_ keymaps: KeymapSessions, _ writer: KeymapWriter, _ access: AccessControl)
        -> [DBusMethod]
    {
        typealias Keymap = KBlinkContract.Keymap
        let sessions = WeakSessions(keymaps)
        return [
            DBusMethod(Keymap.getBindings) { (call: MethodCallContext, zone: String, layerValue: UInt32) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(zone, "zone", limit: KeymapArgument.zoneLimit, allowsEmpty: true)
                let layer = try KeymapArgument.layer(layerValue)
                let rows = try await sessions.get().read(address) { session throws(KeymapError) in
                    try session.bindingTexts(zone: zone.isEmpty ? session.currentZone.rawValue : zone, layer: layer)
                }
                return rows.map { BindingRow(key: $0.key, action: $0.action) }
            },
            Self.setBindingMethod(keymaps, writer),
            DBusMethod(Keymap.undo) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session throws(KeymapError) in try session.undo() }
            },
            DBusMethod(Keymap.redo) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session throws(KeymapError) in try session.redo() }
            },
            DBusMethod(Keymap.diff) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                let all = try await sessions.get().read(address) { session in session.diffTexts() }
                // Diff is open to everyone; the rows of macros go only to callers allowed to read them: not even
                // that a macro changed, so that SetMacro followed by Diff cannot tell whether a guess was right.
                let revealsMacros = await access.mayReadMacros(call)
                let rows = revealsMacros ? all : all.filter { $0.zone != "macro" }
                return rows.map {
                    DiffRow(zone: $0.zone, layer: $0.layer, key: $0.key, old: $0.old, new: $0.new, origin: $0.origin)
                }
            },
            DBusMethod(Keymap.discard) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                try await sessions.get().edit(address) { session in session.discard() }
            },
            DBusMethod(Keymap.setMacro) {
                (call: MethodCallContext, name: String, definition: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(name, "the macro name", limit: KeymapArgument.macroNameLimit)
                try KeymapArgument.check(
                    definition, "the macro definition", limit: KeymapArgument.macroDefinitionLimit)
                // The macro belongs to whoever set it: others need read-others-macros to read it.
                let owner = await access.callerUID(call)
                try await sessions.get().editProfile(address) { session, settings throws(KeymapError) in
                    if try session.setMacro(name: name, definition: definition) {
                        settings.macroOwners[name] = owner
                    }
                }
            },
            DBusMethod(Keymap.removeMacro) { (call: MethodCallContext, name: String) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(name, "the macro name", limit: KeymapArgument.macroNameLimit)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.removeMacro(name: name)
                }
            },
            DBusMethod(Keymap.getMacros) { (call: MethodCallContext) -> [String: String] in
                let address = try call.keyboardAddress()
                return try await sessions.get().read(address) { session in session.macroTexts }
            },
            DBusMethod(Keymap.exportProfile) { (call: MethodCallContext) -> String in
                let address = try call.keyboardAddress()
                return try await sessions.get().read(address) { session in session.exportProfileJSON() }
            },
            DBusMethod(Keymap.importProfile) {
                (call: MethodCallContext, json: String, request: ProfileImportRequest) in
                let address = try call.keyboardAddress()
                try KeymapArgument.check(json, "the profile", limit: KeymapArgument.profileLimit)
                let owner = await access.callerUID(call)
                let summary = try await sessions.get().editProfile(address) { session, settings throws(KeymapError) in
                    let summary = try session.importProfile(json: json, replace: request.replace)
                    for macro in summary.macros where macro.new != nil {
                        settings.macroOwners[macro.name.rawValue] = owner
                    }
                    return summary
                }
                // The answer lists macros' old text too: only for callers allowed to read it.
                let revealsMacros = await access.mayReadMacros(call)
                return ProfileImportReport(summary, revealingMacroText: revealsMacros)
            },
            DBusMethod(Keymap.getKeys) { (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                let keys = try await sessions.get().read(address) { session in session.layout.keys }
                return keys.map {
                    KeyGeometry(
                        key: $0.name.rawValue, zone: $0.zone.rawValue, x: $0.frame.x, y: $0.frame.y,
                        width: $0.frame.width, height: $0.frame.height)
                }
            },
        ]
    }
}

struct WeakSessions: Sendable {
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
