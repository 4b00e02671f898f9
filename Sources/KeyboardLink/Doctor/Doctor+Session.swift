extension Doctor {
    /// Desktops with an on-screen keyboard that pops up by itself (`XDG_CURRENT_DESKTOP` entries, lowercased).
    static let desktopsWithOSK: Set<String> = ["gnome", "phosh", "kde", "ubuntu", "unity", "pantheon", "budgie"]

    func sessionChecks() -> [DoctorCheck] {
        let desktop = environment["XDG_CURRENT_DESKTOP"] ?? ""
        let sessionType = environment["XDG_SESSION_TYPE"] ?? ""
        let agent = root.processes().contains { arguments in
            arguments.first?.split(separator: "/").last == "kblink" && arguments.contains("osk-agent")
        }
        let wanted = desktop.split(separator: ":").contains { Self.desktopsWithOSK.contains($0.lowercased()) }
        let agentCheck: DoctorCheck
        if agent {
            agentCheck = DoctorCheck(.sessionOSKAgent, .ok, found: "kblink osk-agent is running")
        } else if wanted {
            agentCheck = DoctorCheck(
                .sessionOSKAgent, .note, found: "kblink osk-agent is not running",
                why: "\(desktop)'s on-screen keyboard may cover the screen while you type on a Bluetooth keyboard",
                fix: "systemctl --user enable --now kblink-osk-agent")
        } else {
            agentCheck = DoctorCheck(
                .sessionOSKAgent, .ok,
                found: "kblink osk-agent is not running; "
                    + (desktop.isEmpty ? "no desktop session" : "\(desktop) has no on-screen keyboard it handles"))
        }
        let desktopCheck = DoctorCheck(
            .sessionDesktop, .ok,
            found: desktop.isEmpty
                ? "no desktop (XDG_CURRENT_DESKTOP is not set)"
                : "\(desktop)" + (sessionType.isEmpty ? "" : " (\(sessionType))"))
        return [agentCheck, desktopCheck]
    }
}
