import KBlinkAPI

extension Doctor {
    /// kblinkd's configuration file.
    static let daemonConfiguration = "/etc/kblink/kblinkd.conf"
    /// Where polkit reads kblinkd's actions.
    static let policyFile = "/usr/share/polkit-1/actions/org.kblink1.policy"

    func kblinkdChecks() -> [DoctorCheck] {
        guard let kblinkd = bus.kblinkd else {
            let why = "kblink talks to kblinkd for everything: without it nothing can pair, connect or write keymaps"
            let fix = "sudo systemctl enable --now kblinkd"
            return [
                DoctorCheck(
                    .kblinkdRunning, .fail, found: "kblinkd is not on the bus and the bus could not start it", why: why,
                    fix: fix),
                DoctorCheck(.kblinkdVersion, .note, found: "kblinkd is not running: no version to compare"),
                unitCheck(running: false),
                authorizationCheck(),
                permissionsCheck(),
            ]
        }
        var checks = [DoctorCheck(.kblinkdRunning, .ok, found: "kblinkd \(kblinkd.version) owns org.kblink1")]
        if kblinkd.version == clientVersion {
            checks.append(DoctorCheck(.kblinkdVersion, .ok, found: "kblinkd and kblink are both \(clientVersion)"))
        } else {
            checks.append(
                DoctorCheck(
                    .kblinkdVersion, .warn, found: "kblinkd is \(kblinkd.version), kblink is \(clientVersion)",
                    why: "a kblinkd left running across an upgrade may lack what this kblink asks for",
                    fix: "sudo systemctl restart kblinkd"))
        }
        checks.append(unitCheck(running: true))
        checks.append(authorizationCheck())
        checks.append(permissionsCheck())
        return checks
    }

    func unitCheck(running: Bool) -> DoctorCheck {
        guard let unit = bus.unit else {
            return DoctorCheck(
                .kblinkdUnit, .note, found: "systemd is not on this bus: no unit to read",
                why: "on the system bus, systemd says whether kblinkd.service is enabled and whether it failed")
        }
        let found =
            "kblinkd.service is \(unit.activeState)" + (unit.unitFileState.isEmpty ? "" : ", \(unit.unitFileState)")
        switch unit.activeState {
        case "active", "reloading", "activating":
            return DoctorCheck(.kblinkdUnit, .ok, found: found)
        case "failed":
            return DoctorCheck(
                .kblinkdUnit, .fail, found: found, why: "kblinkd stopped with an error and systemd gave up on it",
                fix: "journalctl -u kblinkd -b; then sudo systemctl restart kblinkd")
        default:
            // D-Bus activation starts kblinkd on the first call, so an inactive unit is fine while nothing asked.
            return DoctorCheck(
                .kblinkdUnit, running ? .ok : .note, found: found,
                why: running ? "" : "the bus starts kblinkd on the first call (org.kblink1.service)",
                fix: running ? nil : "sudo systemctl enable --now kblinkd")
        }
    }

    /// The group kblinkd lets act without polkit (`[Authorization] FallbackGroup`, default `kblink`).
    var fallbackGroup: String {
        root.settings(Self.daemonConfiguration)?["Authorization", "FallbackGroup"] ?? "kblink"
    }

    /// Whether the user is a member of the fallback group by the root's `/etc/group`.
    var userInFallbackGroup: Bool {
        guard let user = bus.userName else { return false }
        return root.groups().contains { $0.name == fallbackGroup && $0.members.contains(user) }
    }

    func authorizationCheck() -> DoctorCheck {
        let policyInstalled = root.exists(Self.policyFile)
        if bus.polkitPresent {
            guard policyInstalled else {
                return DoctorCheck(
                    .kblinkdAuthorization, .warn, found: "polkit is running but \(Self.policyFile) is missing",
                    why: "without kblink's actions polkit refuses every change kblinkd asks it about",
                    fix: "sudo apt install --reinstall kblinkd")
            }
            return DoctorCheck(
                .kblinkdAuthorization, .ok, found: "polkit is running and knows kblink's actions (\(Self.policyFile))")
        }
        let groupExists = root.groups().contains { $0.name == fallbackGroup }
        return DoctorCheck(
            .kblinkdAuthorization, groupExists ? .note : .warn,
            found: "polkit is not on the bus; kblinkd lets root and the group '\(fallbackGroup)' change things"
                + (groupExists ? "" : ", and that group does not exist"),
            why: "without polkit, only root and that group may pair, edit keymaps and write firmware",
            fix: groupExists ? nil : "sudo groupadd --system \(fallbackGroup)")
    }

    func permissionsCheck() -> DoctorCheck {
        let actions = PolkitAction.allCases
        if bus.polkitPresent {
            var allowed: [String] = []
            var afterPassword: [String] = []
            var denied: [String] = []
            var unknown: [String] = []
            for action in actions {
                switch bus.permissions[action.id] ?? .unknown("no answer") {
                case .allowed: allowed.append(action.id)
                case .afterAuthentication: afterPassword.append(action.id)
                case .denied: denied.append(action.id)
                case .unknown: unknown.append(action.id)
                }
            }
            var parts: [String] = []
            if !allowed.isEmpty { parts.append("allowed: " + allowed.joined(separator: ", ")) }
            if !afterPassword.isEmpty { parts.append("after a password: " + afterPassword.joined(separator: ", ")) }
            if !denied.isEmpty { parts.append("refused: " + denied.joined(separator: ", ")) }
            if !unknown.isEmpty { parts.append("polkit does not know: " + unknown.joined(separator: ", ")) }
            let status: DoctorStatus = denied.count + unknown.count == actions.count ? .warn : .ok
            return DoctorCheck(
                .kblinkdPermissions, status, found: parts.joined(separator: "; "),
                why: status == .ok ? "" : "you can look at keyboards but change nothing",
                fix: status == .ok ? nil : "sudo usermod -aG \(fallbackGroup) \(bus.userName ?? "$USER")")
        }
        if bus.userName == "root" || userInFallbackGroup {
            return DoctorCheck(
                .kblinkdPermissions, .ok,
                found: bus.userName == "root"
                    ? "root may do everything"
                    : "\(bus.userName ?? "you") may do everything: a member of '\(fallbackGroup)'")
        }
        return DoctorCheck(
            .kblinkdPermissions, .warn,
            found: "\(bus.userName ?? "you") is not in the group '\(fallbackGroup)' and polkit is not on the bus",
            why: "kblinkd refuses your pairing, keymap edits and firmware writes",
            fix: "sudo usermod -aG \(fallbackGroup) \(bus.userName ?? "$USER") (then log in again)")
    }
}
