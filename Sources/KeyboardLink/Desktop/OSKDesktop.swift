import Glibc
import KBlinkAPI
import KeyboardLinkDBus

/// What `kblink osk-agent --status` finds: kblinkd's state, which desktop parts are here and why, and what the
/// agent did.
package struct OSKDesktop: Sendable {
    /// One part of the desktop the agent can act on.
    package struct Part: Sendable, Equatable {
        /// `gsettings`, `squeekboard`, `kwin`.
        package var name: String
        /// Whether the agent acts on it.
        package var active: Bool
        /// Why, for people.
        package var reason: String
    }

    /// Whether kblinkd answered.
    package var kblinkdReachable: Bool
    /// kblinkd's `HardwareKeyboardAttached` (false when unreachable).
    package var attached: Bool
    /// kblinkd's `HardwareKeyboardReasons`.
    package var reasons: [HardwareKeyboardReasonEntry]
    /// `$XDG_CURRENT_DESKTOP`.
    package var currentDesktop: String?
    /// The parts, GSettings first.
    package var parts: [Part]
    /// What the agent did, from its state file.
    package var state: OSKAgentState

    /// The schema directory holding `org.gnome.desktop.a11y.applications`, if any.
    package static func schemaDirectory(_ configuration: OSKAgentConfiguration) -> String? {
        configuration.schemaDirectories.first { directory in
            access(directory + "/\(OSKDesktopNames.screenKeyboardSchema).gschema.xml", R_OK) == 0
        }
    }

    /// Looks at kblinkd and the session as they are now.
    package static func inspect(_ configuration: OSKAgentConfiguration) async -> OSKDesktop {
        var status = OSKDesktop(
            kblinkdReachable: false, attached: false, reasons: [], currentDesktop: configuration.currentDesktop,
            parts: [], state: (try? OSKAgentState.load(from: configuration.statePath)) ?? OSKAgentState())
        if let system = try? await BusConnection.connect(to: configuration.kblinkBus, label: "kblink.osk-status") {
            let manager = DBusProxy(
                connection: system, destination: KBlink.service, path: KBlink.managerPath,
                interface: KBlink.managerInterface)
            if let values = try? await manager.allProperties().values {
                status.kblinkdReachable = true
                status.attached =
                    values[KBlinkContract.Manager.hardwareKeyboardAttachedProperty.name.rawValue]?.boolValue ?? false
                status.reasons =
                    (values[KBlinkContract.Manager.hardwareKeyboardReasonsProperty.name.rawValue]?.arrayValue ?? [])
                    .compactMap { try? HardwareKeyboardReasonEntry(dbusValue: $0) }
            }
            await system.close()
        }
        let session = try? await BusConnection.connect(to: configuration.sessionBus, label: "kblink.osk-status")
        func owner(_ name: BusName) async -> BusName? {
            guard let session else { return nil }
            return (try? await session.nameOwner(of: name)) ?? nil
        }
        let activatable: [String]
        if let session,
            let names = try? await DBusProxy(
                connection: session, destination: .messageBus, path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus"
            ).call("ListActivatableNames", returning: [String].self)
        {
            activatable = names
        } else {
            activatable = []
        }

        // GSettings.
        var gsettings = Part(name: "gsettings", active: false, reason: "")
        if !configuration.usesGSettings {
            gsettings.reason = "turned off (--no-gsettings)"
        } else if session == nil {
            gsettings.reason = "the session bus is not reachable"
        } else if let directory = schemaDirectory(configuration), let path = configuration.dconfDatabasePath {
            let dconfHere =
                await owner(DconfDatabase.writerName) != nil
                || activatable.contains(DconfDatabase.writerName.rawValue)
            let value =
                (try? DconfDatabase(path: path).read(OSKDesktopNames.screenKeyboardPath))?.description ?? "unreadable"
            gsettings.active = dconfHere
            gsettings.reason =
                dconfHere
                ? "schema \(OSKDesktopNames.screenKeyboardSchema) in \(directory); dconf on the session bus; "
                    + "\(OSKDesktopNames.screenKeyboardKey) is \(value) in \(path)"
                : "schema \(OSKDesktopNames.screenKeyboardSchema) in \(directory), but dconf is not on the session bus"
        } else {
            gsettings.reason = "no \(OSKDesktopNames.screenKeyboardSchema) schema (gsettings-desktop-schemas) here"
        }
        var squeekboard = Part(name: "squeekboard", active: false, reason: "")
        if !configuration.usesOSK0 {
            squeekboard.reason = "turned off (--no-squeekboard)"
        } else if let owner = await owner(OSKDesktopNames.osk0Name) {
            squeekboard.active = true
            squeekboard.reason = "\(OSKDesktopNames.osk0Name) is owned by \(owner)"
        } else {
            squeekboard.reason =
                "\(OSKDesktopNames.osk0Name) is not on the session bus (followed: acted on when it comes)"
        }
        var kwin = Part(name: "kwin", active: false, reason: "")
        if !configuration.usesKWin {
            kwin.reason = "turned off (--no-kwin)"
        } else if let owner = await owner(OSKDesktopNames.kwinName) {
            kwin.active = true
            kwin.reason =
                "\(OSKDesktopNames.kwinName) is owned by \(owner); its virtual keyboard's active is set false on attach"
        } else {
            kwin.reason = "\(OSKDesktopNames.kwinName) is not on the session bus (followed: acted on when it comes)"
        }
        status.parts = [gsettings, squeekboard, kwin]
        if let session { await session.close() }
        return status
    }

    /// The report, one line each.
    package var lines: [String] {
        var lines: [String] = []
        if kblinkdReachable {
            lines.append("kblinkd: hardware keyboard attached: \(attached ? "yes" : "no")")
            for reason in reasons { lines.append("  \(reason)") }
        } else {
            lines.append("kblinkd: not reachable (the agent waits for it)")
        }
        lines.append("desktop: \(currentDesktop.map { "XDG_CURRENT_DESKTOP=\($0)" } ?? "XDG_CURRENT_DESKTOP not set")")
        for part in parts {
            lines.append("\(part.name): \(part.active ? "acts" : "idle"): \(part.reason)")
        }
        switch (state.applied, state.previousScreenKeyboard) {
        case (nil, _): lines.append("agent: has not acted yet")
        case (true?, let previous?):
            lines.append(
                "agent: put the on-screen keyboard away (\(OSKDesktopNames.screenKeyboardKey) was \(previous))")
        case (true?, nil):
            lines.append("agent: applied \"attached\" (\(OSKDesktopNames.screenKeyboardKey) needed no change)")
        case (false?, _): lines.append("agent: applied \"not attached\"")
        }
        return lines
    }
}
