import KeyboardLinkDBus
import KeyboardLinkSupport

/// The user's dconf settings: read from the user database file, written through dconf's own service on the
/// session bus.
///
/// dconf's clients never ask the service for values: they read the GVDB file `$XDG_CONFIG_HOME/dconf/user`
/// (`~/.config/dconf/user`), which only `dconf-service` writes, and write by sending a changeset to
/// `ca.desrt.dconf` (`/ca/desrt/dconf/Writer/user`, `ca.desrt.dconf.Writer.Change(ay) -> s tag`); the service
/// writes the file before it answers, then announces the change with its `Notify` signal, which GSettings users
/// (squeekboard, GNOME Shell) follow. The service is D-Bus activated: a write starts it when it is not running.
package struct DconfDatabase: Sendable {
    /// dconf's writer service.
    package static let writerName: BusName = "ca.desrt.dconf"
    /// The writer of the user database.
    package static let writerPath: ObjectPath = "/ca/desrt/dconf/Writer/user"
    /// The writer's interface.
    package static let writerInterface: InterfaceName = "ca.desrt.dconf.Writer"

    /// The user database file.
    package let path: String

    /// The database at `path`.
    package init(path: String) {
        self.path = path
    }

    /// `$XDG_CONFIG_HOME/dconf/user`, else `$HOME/.config/dconf/user`, as GLib's `g_get_user_config_dir` says.
    package static func userDatabasePath(environment: (String) -> String?) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/dconf/user" }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.config/dconf/user"
    }

    /// The value of `key` in the user database; `.unset` when the file or the key does not exist.
    /// - Throws: ``DconfError`` when the file cannot be read or is malformed.
    package func read(_ key: String) throws(DconfError) -> DconfValue {
        let bytes: [UInt8]?
        do {
            bytes = try FileStore().read(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        guard let bytes else { return .unset }
        return try GVDBTable(bytes: bytes).value(key)
    }

    /// Writes `change` through dconf's service; returns once the database file holds it.
    /// - Returns: the service's tag for the change (its `Notify` signal carries it).
    /// - Throws: ``DBusError`` when the service cannot be reached or refuses the change.
    @discardableResult
    package static func write(_ change: DconfChangeset, on connection: BusConnection) async throws -> String {
        let proxy = DBusProxy(
            connection: connection, destination: writerName, path: writerPath, interface: writerInterface)
        return try await proxy.call(
            "Change", [.array(.byte, change.serialized.map(DBusValue.byte))], returning: String.self)
    }
}
