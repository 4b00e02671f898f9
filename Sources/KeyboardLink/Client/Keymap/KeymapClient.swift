import KBlinkAPI
import KeyboardLinkDBus

/// A typed handle on one keyboard's `org.kblink1.Keymap` interface: the CLI's `keymap`, `macro` and `profile`
/// commands and the tests use it. Every method throws the daemon's ``DBusError`` unchanged.
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

    private func call(_ member: String, _ arguments: [DBusValue] = []) async throws -> Message {
        try await proxy.call(MemberName(trusted: member), arguments)
    }

    // MARK: Properties

    /// Every property at once.
    public func state() async throws -> KeymapState {
        KeymapState(properties: try await proxy.allProperties().values)
    }

    /// Shows another zone (writes `CurrentZone`).
    public func selectZone(_ zone: String) async throws {
        try await proxy.setProperty(MemberName(trusted: "CurrentZone"), to: .string(zone))
    }

    /// The zone on show.
    public func currentZone() async throws -> String {
        try await proxy.property(MemberName(trusted: "CurrentZone"), as: String.self)
    }

    /// Whether the pushed keymap is re-applied when the keyboard connects (the `ApplyOnConnect` property).
    public func applyOnConnect() async throws -> Bool {
        try await proxy.property(MemberName(trusted: "ApplyOnConnect"), as: Bool.self)
    }

    /// Turns re-applying on connect on or off (writes `ApplyOnConnect`); turning it on needs a pushed keymap.
    public func setApplyOnConnect(_ enabled: Bool) async throws {
        try await proxy.setProperty(MemberName(trusted: "ApplyOnConnect"), to: .boolean(enabled))
    }

    // MARK: Methods

    /// `GetBindings`: key and action for each key of a zone on a layer, in reading order; an empty zone is the
    /// current one.
    public func bindings(zone: String, layer: Int) async throws -> [(key: String, action: String)] {
        let reply = try await call("GetBindings", [.string(zone), .uint32(UInt32(clamping: layer))])
        return try reply.decode([DBusStruct<String, String>].self).map { ($0.fields.0, $0.fields.1) }
    }

    /// `SetBinding`: stages a key's new action; an empty zone accepts a key of any zone.
    public func setBinding(zone: String = "", layer: Int, key: String, action: String) async throws {
        _ = try await call(
            "SetBinding", [.string(zone), .uint32(UInt32(clamping: layer)), .string(key), .string(action)])
    }

    /// `Undo`.
    public func undo() async throws { _ = try await call("Undo") }

    /// `Redo`.
    public func redo() async throws { _ = try await call("Redo") }

    /// `Discard`: drops the draft.
    public func discard() async throws { _ = try await call("Discard") }

    /// `Diff`: what differs from the base.
    public func diff() async throws -> [KeymapDiffRow] {
        let reply = try await call("Diff")
        return try reply.decode([DBusStruct<String, UInt32, String, String, String, String>].self).map {
            let (zone, layer, key, old, new, origin) = $0.fields
            return KeymapDiffRow(zone: zone, layer: Int(layer), key: key, old: old, new: new, origin: origin)
        }
    }

    /// The macros (the `Macros` property).
    public func macros() async throws -> [String: String] {
        try await proxy.property(MemberName(trusted: "Macros"), as: [String: String].self)
    }

    /// `SetMacro`: defines or replaces a macro.
    public func setMacro(name: String, definition: String) async throws {
        _ = try await call("SetMacro", [.string(name), .string(definition)])
    }

    /// `RemoveMacro`.
    public func removeMacro(name: String) async throws {
        _ = try await call("RemoveMacro", [.string(name)])
    }

    /// `ExportProfile`: the draft as profile JSON.
    public func exportProfile() async throws -> String {
        try await call("ExportProfile").decode(String.self)
    }

    /// `ImportProfile`: stages a profile as one edit.
    public func importProfile(_ json: String) async throws {
        _ = try await call("ImportProfile", [.string(json)])
    }

    /// `GetKeys`: the layout's keys and their places, in reading order.
    public func keys() async throws -> [KeymapKeyInfo] {
        let reply = try await call("GetKeys")
        return try reply.decode([DBusStruct<String, String, Double, Double, Double, Double>].self).map {
            let (key, zone, x, y, width, height) = $0.fields
            return KeymapKeyInfo(key: key, zone: zone, x: x, y: y, width: width, height: height)
        }
    }
}
