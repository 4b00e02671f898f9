import KBlinkAPI
import KeyboardLinkHostFix

/// `kblink doctor`: every check of what stands between this computer and a keyboard that just works, as values.
///
/// The checks are functions of the host's files (``HostRoot``: `/sys`, `/proc`, `/etc`, `/dev` under a root) and of
/// what the bus said (``BusFacts``); none needs root. docs/doctor.md lists them with their sources.
package struct Doctor: Sendable {
    /// The host's files.
    package var root: HostRoot
    /// What kblinkd, BlueZ, systemd and polkit said.
    package var bus: BusFacts
    /// The session's environment (`XDG_CURRENT_DESKTOP`, `XDG_SESSION_TYPE`).
    package var environment: [String: String]
    /// kblink's own version, to compare with kblinkd's.
    package var clientVersion: String
    /// Only this keyboard (an address or the start of its name); nil for every paired keyboard.
    package var device: String?

    /// A doctor over these facts.
    package init(
        root: HostRoot, bus: BusFacts, environment: [String: String], clientVersion: String = KBlink.version,
        device: String? = nil
    ) {
        self.root = root
        self.bus = bus
        self.environment = environment
        self.clientVersion = clientVersion
        self.device = device
    }

    /// Every check, in ``DoctorCheckID/all``'s order (the keyboard checks grouped by keyboard).
    package func checks() -> [DoctorCheck] {
        kblinkdChecks() + blueZChecks() + adapterChecks() + keyboardChecks() + sessionChecks()
    }

    /// The keyboards the checks look at: the one `device` names, or every paired or connected one.
    var keyboards: [BusFacts.Keyboard] {
        let all = bus.kblinkd?.keyboards ?? []
        guard let device, !device.isEmpty else { return all }
        let wanted = device.uppercased()
        if let exact = all.first(where: { $0.summary.address.uppercased() == wanted }) { return [exact] }
        return all.filter {
            $0.summary.alias.lowercased().hasPrefix(device.lowercased())
                || $0.summary.name.lowercased().hasPrefix(device.lowercased())
        }
    }
}
