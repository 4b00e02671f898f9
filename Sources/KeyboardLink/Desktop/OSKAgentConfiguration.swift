import KeyboardLinkDBus

/// How the on-screen keyboard agent runs: where kblinkd and the session are, which parts act, and where it keeps
/// its state.
package struct OSKAgentConfiguration: Sendable {
    /// The bus kblinkd is on (the system bus).
    package var kblinkBus: BusAddress
    /// The user's session bus.
    package var sessionBus: BusAddress
    /// Print what would be done instead of doing it.
    package var dryRun = false
    /// Set `screen-keyboard-enabled` (squeekboard, Phosh, GNOME).
    package var usesGSettings = true
    /// Call `sm.puri.OSK0.SetVisible(false)` on attach.
    package var usesOSK0 = true
    /// Set KWin's virtual keyboard `active` false on attach.
    package var usesKWin = true
    /// The agent's state file.
    package var statePath: String
    /// The user's dconf database; nil when there is no home to find it in.
    package var dconfDatabasePath: String?
    /// The directories searched for GSettings schemas (`$XDG_DATA_DIRS` + `/glib-2.0/schemas`).
    package var schemaDirectories: [String]
    /// `$XDG_CURRENT_DESKTOP`, for `--status`.
    package var currentDesktop: String?

    /// A configuration with every part on.
    package init(
        kblinkBus: BusAddress, sessionBus: BusAddress, statePath: String, dconfDatabasePath: String?,
        schemaDirectories: [String], currentDesktop: String?
    ) {
        self.kblinkBus = kblinkBus
        self.sessionBus = sessionBus
        self.statePath = statePath
        self.dconfDatabasePath = dconfDatabasePath
        self.schemaDirectories = schemaDirectories
        self.currentDesktop = currentDesktop
    }

    /// The state file, schema directories and dconf database from the environment, as the XDG base directory
    /// specification places them.
    package static func paths(environment: (String) -> String?) -> (
        statePath: String?, dconfDatabasePath: String?, schemaDirectories: [String]
    ) {
        var stateHome = environment("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        if stateHome == nil, let home = environment("HOME"), home.hasPrefix("/") { stateHome = home + "/.local/state" }
        let dataDirectories = (environment("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":")
            .filter { $0.hasPrefix("/") }.map(String.init)
        let schemaDirectories = (dataDirectories.isEmpty ? ["/usr/local/share", "/usr/share"] : dataDirectories).map {
            $0 + "/glib-2.0/schemas"
        }
        return (
            stateHome.map { $0 + "/kblink/osk-agent.json" },
            DconfDatabase.userDatabasePath(environment: environment), schemaDirectories
        )
    }
}
