import KBlinkAPI
import KeyboardLinkDBus

/// A typed handle on one keyboard's `org.kblink1.Keymap` interface: the CLI's `keymap`, `macro` and `profile`
/// commands and the tests use it. Every method throws the daemon's ``KBlinkError`` unchanged (a ``DBusError`` for the
/// bus's errors).
public struct KeymapClient: Sendable {
    /// The proxy on the interface.
    public let proxy: DBusProxy

    /// A handle on the keymap of the keyboard at `path`.
    public init(connection: BusConnection, path: ObjectPath) {
        proxy = DBusProxy(
            connection: connection, destination: KBlink.service, path: path, interface: KBlink.keymapInterface)
    }

    /// A handle on a keyboard's keymap.
    public init(client: KBlinkClient, keyboard: KeyboardInfo) {
        self.init(connection: client.connection, path: keyboard.path)
    }

    private typealias Contract = KBlinkContract.Keymap

    // MARK: Properties

    /// Every property at once.
    public func state() async throws -> KeymapState {
        KeymapState(properties: try await proxy.allProperties().values)
    }

    /// Shows another zone (writes `CurrentZone`).
    public func selectZone(_ zone: String) async throws {
        try await proxy.setProperty(Contract.currentZoneProperty, to: zone)
    }

    /// The zone on show.
    public func currentZone() async throws -> String {
        try await proxy.property(Contract.currentZoneProperty)
    }

    /// Whether the pushed keymap is re-applied when the keyboard connects (the `ApplyOnConnect` property).
    public func applyOnConnect() async throws -> Bool {
        try await proxy.property(Contract.applyOnConnectProperty)
    }

    /// Turns re-applying on connect on or off (writes `ApplyOnConnect`); turning it on needs a pushed keymap.
    public func setApplyOnConnect(_ enabled: Bool) async throws {
        try await proxy.setProperty(Contract.applyOnConnectProperty, to: enabled)
    }

    // MARK: Methods

    /// `GetBindings`: key and action for each key of a zone on a layer, in reading order; an empty zone is the
    /// current one.
    public func bindings(zone: String, layer: Int) async throws -> [(key: String, action: String)] {
        try await proxy.call(Contract.getBindings, zone, UInt32(clamping: layer)).map { ($0.key, $0.action) }
    }

    /// `SetBinding`: stages a key's new action; an empty zone accepts a key of any zone.
    /// - Returns: the binding as kblinkd stored it: the key and action as it resolved them.
    @discardableResult
    public func setBinding(zone: String = "", layer: Int, key: String, action: String) async throws -> StoredBinding {
        try await proxy.call(Contract.setBinding, zone, UInt32(clamping: layer), key, action)
    }

    /// `Undo`.
    public func undo() async throws { try await proxy.call(Contract.undo) }

    /// `Redo`.
    public func redo() async throws { try await proxy.call(Contract.redo) }

    /// `Discard`: drops the draft.
    public func discard() async throws { try await proxy.call(Contract.discard) }

    /// `Diff`: what differs from the base.
    public func diff() async throws -> [DiffRow] {
        try await proxy.call(Contract.diff)
    }

    /// Every macro's name and text (`GetMacros`).
    /// - Throws: ``KBlinkError`` `notAuthorized` when the caller may not read macro text
    ///   (`org.kblink1.read-macros`); ``macroNames()`` still works then.
    public func macros() async throws -> [String: String] {
        try await proxy.call(Contract.getMacros)
    }

    /// The macros' names (the `Macros` property, which everyone may read: it withholds the text).
    public func macroNames() async throws -> [String] {
        try await proxy.property(Contract.macrosProperty).keys.sorted()
    }

    /// `SetMacro`: defines or replaces a macro.
    public func setMacro(name: String, definition: String) async throws {
        try await proxy.call(Contract.setMacro, name, definition)
    }

    /// `RemoveMacro`.
    public func removeMacro(name: String) async throws {
        try await proxy.call(Contract.removeMacro, name)
    }

    /// `ExportProfile`: the draft as profile JSON.
    public func exportProfile() async throws -> String {
        try await proxy.call(Contract.exportProfile)
    }

    /// `GetKeys`: the layout's keys and their places, in reading order.
    public func keys() async throws -> [KeyGeometry] {
        try await proxy.call(Contract.getKeys)
    }
}
