extension Doctor {
    static let mainConf = "/etc/bluetooth/main.conf"
    static let inputConf = "/etc/bluetooth/input.conf"
    static let dpkgStatus = "/var/lib/dpkg/status"

    /// A BlueZ release: `5.66`.
    package struct BlueZVersion: Sendable, Comparable, CustomStringConvertible {
        package var major: Int
        package var minor: Int
        package init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }
        /// From a Debian version (`5.66-1+deb12u2`, `1:5.72-0ubuntu5`) or an upstream one (`5.79`).
        package init?(parsing text: String) {
            let upstream = text.split(separator: ":").last.map { $0.split(separator: "-").first ?? $0 } ?? ""
            let parts = upstream.split(separator: ".")
            guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1].prefix { $0.isNumber })
            else { return nil }
            self.init(major, minor)
        }
        package var description: String { "\(major).\(minor)" }
        package static func < (lhs: BlueZVersion, rhs: BlueZVersion) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }
    }

    /// A known problem of some BlueZ releases for keyboards, with where it is fixed and the source.
    struct KnownProblem {
        let status: DoctorStatus
        let before: BlueZVersion
        let text: String
        let source: String
    }

    static let knownProblems = [
        KnownProblem(
            status: .warn, before: BlueZVersion(5, 67),
            text: "HoG ignores Multiple Handle Value Notifications (ATT 0x23): key reports a keyboard sends that way "
                + "are lost (fixed in 5.67)",
            source: "bluez commit 2f4c576ad \"hog-lib: Fix not handling BT_ATT_OP_HANDLE_NFY_MULT\" (5.67), "
                + "https://github.com/bluez/bluez/issues/71"),
        KnownProblem(
            status: .note, before: BlueZVersion(5, 77),
            text: "a keyboard's uhid input node is removed at every disconnection and made again when it reconnects "
                + "(5.77 keeps keyboards' nodes; 5.79 adds UserspaceHID=persist for every device)",
            source: "bluez commit e4f6c68f2 \"shared/uhid: Add special handling for non-keyboards\" (5.77), "
                + "https://github.com/bluez/bluez/issues/848; commit 1782bfd79 \"input: Add support for "
                + "UserspaceHID=persist\" (5.79)"),
        KnownProblem(
            status: .note, before: BlueZVersion(5, 78),
            text: "an ATT request or answer written while a link's security changes (as it does during pairing) is "
                + "lost, and the side waiting for it drops the link 30 s later; the keyboard reconnects, but a push "
                + "running then fails (kblinkd reads a pull cut that way again) (fixed in 5.78)",
            source: "bluez commit 32a081168 \"att: Correctly handle negative return values in can_write_data\" "
                + "(5.78)"),
    ]

    /// The installed `bluez` package's version, from dpkg's status file.
    var installedBlueZ: (text: String, version: BlueZVersion)? {
        guard let status = root.text(Self.dpkgStatus) else { return nil }
        for paragraph in status.split(separator: "\n\n") {
            let lines = paragraph.split(separator: "\n")
            guard lines.contains("Package: bluez"), lines.contains(where: { $0.hasSuffix(" installed") }),
                let line = lines.first(where: { $0.hasPrefix("Version: ") })
            else { continue }
            let text = String(line.dropFirst("Version: ".count))
            return BlueZVersion(parsing: text).map { (text, $0) }
        }
        return nil
    }

    /// bluetoothd's command line, from the root's /proc; nil when no bluetoothd runs there.
    var bluetoothdCommandLine: [String]? {
        root.processes().first { $0.first?.split(separator: "/").last == "bluetoothd" }
    }

    func blueZChecks() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        checks.append(
            bus.blueZRunning
                ? DoctorCheck(.bluezRunning, .ok, found: "bluetoothd owns org.bluez")
                : DoctorCheck(
                    .bluezRunning, .fail, found: "bluetoothd is not on the bus",
                    why: "BlueZ is what talks to the keyboards; kblinkd only talks to it",
                    fix: "sudo systemctl enable --now bluetooth"))
        let installed = installedBlueZ
        if let installed {
            checks.append(
                DoctorCheck(.bluezVersion, .ok, found: "bluez \(installed.text) (BlueZ \(installed.version))"))
            let problems = Self.knownProblems.filter { installed.version < $0.before }
            if problems.isEmpty {
                checks.append(
                    DoctorCheck(
                        .bluezKnownProblems, .ok, found: "none known for keyboards in BlueZ \(installed.version)"))
            } else {
                checks.append(
                    DoctorCheck(
                        .bluezKnownProblems, problems.map(\.status).max() ?? .note,
                        found: problems.map(\.text).joined(separator: "; "),
                        why: "these are bugs of BlueZ itself; kblink cannot work around them",
                        fix: problems.contains { $0.status >= .warn }
                            ? "upgrade bluez to 5.67 or later (Debian: bookworm-backports or trixie)" : nil,
                        sources: problems.map(\.source)))
            }
        } else {
            checks.append(
                DoctorCheck(
                    .bluezVersion, .note, found: "no installed bluez package in \(Self.dpkgStatus)",
                    why: "without the version, its known problems cannot be checked"))
            checks.append(
                DoctorCheck(.bluezKnownProblems, .note, found: "BlueZ's version is not known: nothing checked"))
        }
        checks.append(experimentalCheck())
        checks.append(inputConfCheck(installed?.version))
        checks.append(mainConfCheck())
        return checks
    }

    func experimentalCheck() -> DoctorCheck {
        let provider = root.settings(Self.daemonConfiguration)?["Battery", "Provider"]?.lowercased() == "true"
        guard provider else {
            return DoctorCheck(
                .bluezExperimental, .ok, found: "kblinkd's battery provider is off: experimental features not needed")
        }
        let commandLine = bluetoothdCommandLine ?? []
        let flag = commandLine.dropFirst().contains {
            $0 == "--experimental" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.containsText("E"))
        }
        let configured = root.settings(Self.mainConf)?["General", "Experimental"]?.lowercased() == "true"
        if flag || configured {
            return DoctorCheck(
                .bluezExperimental, .ok,
                found: "battery provider on, and bluetoothd has experimental features ("
                    + (flag ? "-E" : "Experimental = true in \(Self.mainConf)") + ")")
        }
        return DoctorCheck(
            .bluezExperimental, .warn,
            found: "kblinkd's [Battery] Provider is true but bluetoothd runs without experimental features",
            why: "org.bluez.BatteryProviderManager1 exists only with them: the keyboard's battery will not show in "
                + "the desktop",
            fix: "edit \(Self.mainConf): under [General] set 'Experimental = true', then sudo systemctl restart "
                + "bluetooth")
    }

    func inputConfCheck(_ version: BlueZVersion?) -> DoctorCheck {
        let settings = root.settings(Self.inputConf)
        var problems: [String] = []
        var fixes: [String] = []
        var found: [String] = []
        if let idle = settings?["General", "IdleTimeout"] {
            found.append("IdleTimeout=\(idle)")
            if let minutes = Int(idle), minutes > 0 {
                problems.append(
                    "IdleTimeout=\(minutes) disconnects a classic (BR/EDR) keyboard after \(minutes) idle minutes")
                fixes.append("set 'IdleTimeout=0' under [General]")
            }
        }
        if let bonded = settings?["General", "ClassicBondedOnly"] {
            found.append("ClassicBondedOnly=\(bonded)")
            if bonded.lowercased() == "false" {
                problems.append(
                    "ClassicBondedOnly=false accepts HID connections from devices that are not bonded: anything "
                        + "nearby can type")
                fixes.append("set 'ClassicBondedOnly=true' under [General] (re-pair keyboards that need otherwise)")
            }
        }
        if let userspace = settings?["General", "UserspaceHID"] {
            found.append("UserspaceHID=\(userspace)")
            if userspace.lowercased() == "persist", let version, version < BlueZVersion(5, 79) {
                problems.append("UserspaceHID=persist is only known from BlueZ 5.79; BlueZ \(version) ignores it")
                fixes.append("remove 'UserspaceHID=persist'")
            }
        }
        let text =
            settings == nil
            ? "no \(Self.inputConf): BlueZ's defaults"
            : found.isEmpty ? "BlueZ's defaults" : found.joined(separator: ", ")
        guard !problems.isEmpty else {
            return DoctorCheck(.bluezInputConf, .ok, found: text)
        }
        return DoctorCheck(
            .bluezInputConf, .warn, found: text, why: problems.joined(separator: "; "),
            fix: "edit \(Self.inputConf): " + fixes.joined(separator: "; ") + "; then sudo systemctl restart bluetooth")
    }

    func mainConfCheck() -> DoctorCheck {
        let settings = root.settings(Self.mainConf)
        var problems: [String] = []
        var fixes: [String] = []
        var found: [String] = []
        if let attempts = settings?["Policy", "ReconnectAttempts"] {
            found.append("ReconnectAttempts=\(attempts)")
            if attempts == "0" {
                problems.append("ReconnectAttempts=0: BlueZ never reconnects a keyboard whose link dropped")
                fixes.append("under [Policy] set 'ReconnectAttempts=7'")
            }
        }
        if let fast = settings?["General", "FastConnectable"] {
            found.append("FastConnectable=\(fast)")
        }
        if let repairing = settings?["General", "JustWorksRepairing"] {
            found.append("JustWorksRepairing=\(repairing)")
            if repairing.lowercased() == "always" {
                problems.append(
                    "JustWorksRepairing=always lets any device claiming a paired keyboard's address replace its keys "
                        + "without asking")
                fixes.append("under [General] set 'JustWorksRepairing=confirm'")
            }
        }
        let text =
            settings == nil
            ? "no \(Self.mainConf): BlueZ's defaults"
            : found.isEmpty ? "BlueZ's defaults" : found.joined(separator: ", ")
        guard !problems.isEmpty else {
            return DoctorCheck(.bluezMainConf, .ok, found: text)
        }
        return DoctorCheck(
            .bluezMainConf, .warn, found: text, why: problems.joined(separator: "; "),
            fix: "edit \(Self.mainConf): " + fixes.joined(separator: "; ") + "; then sudo systemctl restart bluetooth")
    }
}
