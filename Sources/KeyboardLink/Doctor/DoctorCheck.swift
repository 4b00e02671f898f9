import KeyboardLinkHostFix

/// How a check came out, from best to worst.
package enum DoctorStatus: String, Sendable, Comparable, CaseIterable {
    /// Nothing to do.
    case ok = "OK"
    /// Worth knowing; nothing is broken.
    case note = "NOTE"
    /// Something works worse than it could (a lost key press, media keys on the F-row).
    case warn = "WARN"
    /// Something does not work (kblinkd or BlueZ not running, the adapter blocked).
    case fail = "FAIL"

    private var rank: Int {
        switch self {
        case .ok: 0
        case .note: 1
        case .warn: 2
        case .fail: 3
        }
    }

    package static func < (lhs: DoctorStatus, rhs: DoctorStatus) -> Bool { lhs.rank < rhs.rank }
}

/// A check's stable id (`bluez.version`, `keyboard.hid-driver`): what `--json` and scripts key on, and what
/// docs/doctor.md lists. Adding a check adds an id; an id is never renamed.
package struct DoctorCheckID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }
    package static func < (lhs: DoctorCheckID, rhs: DoctorCheckID) -> Bool { lhs.rawValue < rhs.rawValue }

    package static let kblinkdRunning = DoctorCheckID(rawValue: "kblinkd.running")
    package static let kblinkdVersion = DoctorCheckID(rawValue: "kblinkd.version")
    package static let kblinkdUnit = DoctorCheckID(rawValue: "kblinkd.unit")
    package static let kblinkdAuthorization = DoctorCheckID(rawValue: "kblinkd.authorization")
    package static let kblinkdPermissions = DoctorCheckID(rawValue: "kblinkd.permissions")
    package static let bluezRunning = DoctorCheckID(rawValue: "bluez.running")
    package static let bluezVersion = DoctorCheckID(rawValue: "bluez.version")
    package static let bluezKnownProblems = DoctorCheckID(rawValue: "bluez.known-problems")
    package static let bluezExperimental = DoctorCheckID(rawValue: "bluez.experimental")
    package static let bluezInputConf = DoctorCheckID(rawValue: "bluez.input-conf")
    package static let bluezMainConf = DoctorCheckID(rawValue: "bluez.main-conf")
    package static let adapterPowered = DoctorCheckID(rawValue: "adapter.powered")
    package static let adapterRfkill = DoctorCheckID(rawValue: "adapter.rfkill")
    package static let adapterAutosuspend = DoctorCheckID(rawValue: "adapter.autosuspend")
    package static let keyboardPaired = DoctorCheckID(rawValue: "keyboard.paired")
    package static let keyboardBonded = DoctorCheckID(rawValue: "keyboard.bonded")
    package static let keyboardTrusted = DoctorCheckID(rawValue: "keyboard.trusted")
    package static let keyboardHealth = DoctorCheckID(rawValue: "keyboard.health")
    package static let keyboardHIDDriver = DoctorCheckID(rawValue: "keyboard.hid-driver")
    package static let keyboardHidraw = DoctorCheckID(rawValue: "keyboard.hidraw")
    package static let keyboardStudioLock = DoctorCheckID(rawValue: "keyboard.studio-lock")
    package static let keyboardBattery = DoctorCheckID(rawValue: "keyboard.battery")
    package static let keyboardDrift = DoctorCheckID(rawValue: "keyboard.drift")
    package static let keyboardAutoApply = DoctorCheckID(rawValue: "keyboard.auto-apply")
    package static let sessionOSKAgent = DoctorCheckID(rawValue: "session.osk-agent")
    package static let sessionDesktop = DoctorCheckID(rawValue: "session.desktop")

    /// Every check `kblink doctor` runs, in the order it shows them (the keyboard ones once per keyboard).
    package static let all: [DoctorCheckID] = [
        kblinkdRunning, kblinkdVersion, kblinkdUnit, kblinkdAuthorization, kblinkdPermissions,
        bluezRunning, bluezVersion, bluezKnownProblems, bluezExperimental, bluezInputConf, bluezMainConf,
        adapterPowered, adapterRfkill, adapterAutosuspend,
        keyboardPaired, keyboardBonded, keyboardTrusted, keyboardHealth, keyboardHIDDriver, keyboardHidraw,
        keyboardStudioLock, keyboardBattery, keyboardDrift, keyboardAutoApply,
        sessionOSKAgent, sessionDesktop,
    ]
}

/// One check's outcome: what was found, why it matters and what to do.
package struct DoctorCheck: Sendable, Equatable {
    /// The stable id.
    package var id: DoctorCheckID
    /// What it is about when there may be several: a keyboard's address, an adapter (`hci0`); nil otherwise.
    package var subject: String?
    /// How it came out.
    package var status: DoctorStatus
    /// What was found, in a sentence.
    package var found: String
    /// Why it matters (empty when it is OK and there is nothing to add).
    package var why: String
    /// The exact fix: a command or an edit; nil when there is nothing to do.
    package var fix: String?
    /// The part of the fix `kblink doctor --fix` can apply (through kblink-fix-host); nil when it must be done by hand.
    package var automaticFix: HostFix?
    /// Where the facts behind the check come from (a commit, an issue, a kernel source file), for known problems.
    package var sources: [String]

    /// A check as given.
    package init(
        _ id: DoctorCheckID, subject: String? = nil, _ status: DoctorStatus, found: String, why: String = "",
        fix: String? = nil, automaticFix: HostFix? = nil, sources: [String] = []
    ) {
        self.id = id
        self.subject = subject
        self.status = status
        self.found = found
        self.why = why
        self.fix = fix
        self.automaticFix = automaticFix
        self.sources = sources
    }
}
