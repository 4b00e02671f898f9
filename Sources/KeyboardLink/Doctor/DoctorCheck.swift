import KeyboardLinkHostFix

/// How a check came out, from best to worst.
public enum DoctorStatus: String, Sendable, Comparable, CaseIterable {
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

    public static func < (lhs: DoctorStatus, rhs: DoctorStatus) -> Bool { lhs.rank < rhs.rank }
}

/// A check's stable id (`bluez.version`, `keyboard.hid-driver`): what `--json` and scripts key on, and what
/// docs/doctor.md lists. Adding a check adds an id; an id is never renamed.
public struct DoctorCheckID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: DoctorCheckID, rhs: DoctorCheckID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let kblinkdRunning = DoctorCheckID(rawValue: "kblinkd.running")
    public static let kblinkdVersion = DoctorCheckID(rawValue: "kblinkd.version")
    public static let kblinkdUnit = DoctorCheckID(rawValue: "kblinkd.unit")
    public static let kblinkdAuthorization = DoctorCheckID(rawValue: "kblinkd.authorization")
    public static let kblinkdPermissions = DoctorCheckID(rawValue: "kblinkd.permissions")
    public static let bluezRunning = DoctorCheckID(rawValue: "bluez.running")
    public static let bluezVersion = DoctorCheckID(rawValue: "bluez.version")
    public static let bluezKnownProblems = DoctorCheckID(rawValue: "bluez.known-problems")
    public static let bluezExperimental = DoctorCheckID(rawValue: "bluez.experimental")
    public static let bluezInputConf = DoctorCheckID(rawValue: "bluez.input-conf")
    public static let bluezMainConf = DoctorCheckID(rawValue: "bluez.main-conf")
    public static let adapterPowered = DoctorCheckID(rawValue: "adapter.powered")
    public static let adapterRfkill = DoctorCheckID(rawValue: "adapter.rfkill")
    public static let adapterAutosuspend = DoctorCheckID(rawValue: "adapter.autosuspend")
    public static let keyboardPaired = DoctorCheckID(rawValue: "keyboard.paired")
    public static let keyboardBonded = DoctorCheckID(rawValue: "keyboard.bonded")
    public static let keyboardTrusted = DoctorCheckID(rawValue: "keyboard.trusted")
    public static let keyboardHealth = DoctorCheckID(rawValue: "keyboard.health")
    public static let keyboardHIDDriver = DoctorCheckID(rawValue: "keyboard.hid-driver")
    public static let keyboardHidraw = DoctorCheckID(rawValue: "keyboard.hidraw")
    public static let keyboardStudioLock = DoctorCheckID(rawValue: "keyboard.studio-lock")
    public static let keyboardBattery = DoctorCheckID(rawValue: "keyboard.battery")
    public static let keyboardDrift = DoctorCheckID(rawValue: "keyboard.drift")
    public static let keyboardAutoApply = DoctorCheckID(rawValue: "keyboard.auto-apply")
    public static let sessionOSKAgent = DoctorCheckID(rawValue: "session.osk-agent")
    public static let sessionDesktop = DoctorCheckID(rawValue: "session.desktop")

    /// Every check `kblink doctor` runs, in the order it shows them (the keyboard ones once per keyboard).
    public static let all: [DoctorCheckID] = [
        kblinkdRunning, kblinkdVersion, kblinkdUnit, kblinkdAuthorization, kblinkdPermissions,
        bluezRunning, bluezVersion, bluezKnownProblems, bluezExperimental, bluezInputConf, bluezMainConf,
        adapterPowered, adapterRfkill, adapterAutosuspend,
        keyboardPaired, keyboardBonded, keyboardTrusted, keyboardHealth, keyboardHIDDriver, keyboardHidraw,
        keyboardStudioLock, keyboardBattery, keyboardDrift, keyboardAutoApply,
        sessionOSKAgent, sessionDesktop,
    ]
}

/// One check's outcome: what was found, why it matters and what to do.
public struct DoctorCheck: Sendable, Equatable {
    /// The stable id.
    public var id: DoctorCheckID
    /// What it is about when there may be several: a keyboard's address, an adapter (`hci0`); nil otherwise.
    public var subject: String?
    /// How it came out.
    public var status: DoctorStatus
    /// What was found, in a sentence.
    public var found: String
    /// Why it matters (empty when it is OK and there is nothing to add).
    public var why: String
    /// The exact fix: a command or an edit; nil when there is nothing to do.
    public var fix: String?
    /// The part of the fix `kblink doctor --fix` can apply (through kblink-fix-host); nil when it must be done by hand.
    public var automaticFix: HostFix?
    /// Where the facts behind the check come from (a commit, an issue, a kernel source file), for known problems.
    public var sources: [String]

    /// A check as given.
    public init(
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
