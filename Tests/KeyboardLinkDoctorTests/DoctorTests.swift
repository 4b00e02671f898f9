import KBlinkAPI
import Testing

@testable import KeyboardLinkDoctor

/// `kblink doctor`'s checks on fake roots and given bus facts: a healthy host reports nothing, a host with every
/// problem planted reports each of them and nothing else, and each check is driven through found, not found and
/// broken.
@Suite struct DoctorTests {
    static func run(_ host: FakeHost, _ facts: BusFacts, environment: [String: String] = FakeHost.desktop)
        -> [DoctorCheck]
    {
        Doctor(root: HostRoot(host.root), bus: facts, environment: environment).checks()
    }

    @Test func aHealthyHostReportsNothingAndRunsEveryCheck() throws {
        let host = try FakeHost.healthy()
        let checks = Self.run(host, FakeHost.healthyFacts())
        #expect(checks.reported.isEmpty, "\(checks.filter { $0.status != .ok })")
        #expect(Set(checks.map(\.id)) == Set(DoctorCheckID.all))
        #expect(checks.allSatisfy { !$0.found.isEmpty })
    }

    /// Every problem a running kblinkd and BlueZ can show at once (kblinkd or BlueZ not running hides the checks
    /// that ask them; the table below drives those). `keyboard.auto-apply` and `session.desktop` only say what they
    /// found: they have no problem to plant.
    @Test func everyPlantedProblemIsReportedAndNothingElse() throws {
        let host = try FakeHost.healthy()
        var facts = FakeHost.healthyFacts()
        var planted: Set<String> = []
        func plant(_ id: DoctorCheckID, _ subject: String? = nil) {
            planted.insert(id.rawValue + (subject.map { " " + $0 } ?? ""))
        }
        facts.kblinkd?.version = "0.0.9"
        plant(.kblinkdVersion)
        facts.unit = .init(activeState: "failed", unitFileState: "enabled")
        plant(.kblinkdUnit)
        host.remove(Doctor.policyFile)
        plant(.kblinkdAuthorization)
        for action in PolkitAction.allCases { facts.permissions[action.id] = .denied }
        plant(.kblinkdPermissions)
        try host.write(
            "/var/lib/dpkg/status", "Package: bluez\nStatus: install ok installed\nVersion: 5.66-1+deb12u2\n")
        plant(.bluezKnownProblems)
        try host.write("/proc/612/cmdline", "/usr/libexec/bluetooth/bluetoothd\0")
        plant(.bluezExperimental)
        try host.write("/etc/bluetooth/input.conf", "[General]\nIdleTimeout=30\n")
        plant(.bluezInputConf)
        try host.write("/etc/bluetooth/main.conf", "[Policy]\nReconnectAttempts=0\n")
        plant(.bluezMainConf)
        facts.adapters[0].powered = false
        plant(.adapterPowered, "hci0")
        try host.write("/sys/class/rfkill/rfkill0/soft", "1\n")
        plant(.adapterRfkill)
        try host.write("/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/power/control", "auto\n")
        plant(.adapterAutosuspend, "hci0")
        // A keyboard that claims Apple's IDs, with every problem a keyboard can have.
        let fake = "DC:2C:26:00:00:03"
        try host.hidDevice("0005:05AC:0255.0003", name: "Fake Keyboard", address: fake, driver: "apple")
        // fnmode stays 3 (auto): the kernel's list does not know this name, so its F-row sends media keys.
        facts.kblinkd?.keyboards.append(
            BusFacts.Keyboard(
                summary: summary(fake, "Fake Keyboard", bonded: false, trusted: false, battery: [9]),
                applyOnConnect: false,
                driftedBindings: [
                    DiffRow(zone: "standard", layer: 0, key: "CAPS", old: "KC_CAPS", new: "KC_LCTL", origin: "device")
                ],
                health: "no-input-device"))
        // Its firmware is ZMK Studio, locked.
        let last = (facts.kblinkd?.keyboards.count ?? 0) - 1
        facts.kblinkd?.keyboards[last].summary.driver = "zmk-studio"
        facts.kblinkd?.keyboards[last].studioLock = .locked
        for id in [
            DoctorCheckID.keyboardBonded, .keyboardTrusted, .keyboardHealth, .keyboardHIDDriver, .keyboardBattery,
            .keyboardDrift, .keyboardStudioLock,
        ] {
            plant(id, fake)
        }
        // A keyboard connected without pairing.
        let stranger = "DC:2C:26:00:00:04"
        try host.hidDevice("0005:1D50:615E.0004", name: "Stranger", address: stranger, driver: "hid-generic")
        facts.kblinkd?.keyboards.append(
            BusFacts.Keyboard(summary: summary(stranger, "Stranger", paired: false, bonded: false), health: "working"))
        plant(.keyboardPaired, stranger)
        // The VIA keyboard's node is not kblinkd's.
        try host.write("/etc/group", "kblink:x:990:alice\nplugdev:x:\(FakeHost.ownGroupID):\n")
        plant(.keyboardHidraw, VIABoard.address)
        // The desktop's agent is not running.
        host.remove("/proc/2044/cmdline")
        plant(.sessionOSKAgent)

        let checks = Self.run(host, facts)
        #expect(
            checks.reported == planted,
            "missing: \(planted.subtracting(checks.reported)), extra: \(checks.reported.subtracting(planted))")
        // The automatic fixes are exactly the safe ones.
        let fixes = Set(checks.compactMap(\.automaticFix))
        #expect(
            fixes == [
                .hidAppleFnmode(2), .adapterAutosuspendOff(vendor: "8087", product: "0029", usbDevice: "1-4"),
            ])
        // Every reported problem says what to do.
        #expect(checks.filter { $0.status >= .warn }.allSatisfy { $0.fix != nil && !$0.why.isEmpty })
    }

    /// One row of the table: a change to the healthy host and what the check then says.
    struct Case: Sendable, CustomTestStringConvertible {
        let id: DoctorCheckID
        let subject: String?
        let name: String
        let expected: DoctorStatus
        let change: @Sendable (FakeHost, inout BusFacts, inout [String: String]) throws -> Void
        var testDescription: String { "\(id) \(name)" }

        init(
            _ id: DoctorCheckID, _ name: String, _ expected: DoctorStatus, subject: String? = nil,
            _ change: @escaping @Sendable (FakeHost, inout BusFacts, inout [String: String]) throws -> Void = {
                _, _, _ in
            }
        ) {
            self.id = id
            self.subject = subject
            self.name = name
            self.expected = expected
            self.change = change
        }
    }

    static let keychron = Keychron.address
    static let via = VIABoard.address

    static let cases: [Case] = [
        Case(.kblinkdRunning, "found", .ok),
        Case(.kblinkdRunning, "not found", .fail) { _, facts, _ in facts.kblinkd = nil },
        Case(.kblinkdVersion, "same", .ok),
        Case(.kblinkdVersion, "not running", .note) { _, facts, _ in facts.kblinkd = nil },
        Case(.kblinkdVersion, "older", .warn) { _, facts, _ in facts.kblinkd?.version = "0.0.1" },
        Case(.kblinkdUnit, "active", .ok),
        Case(.kblinkdUnit, "no systemd", .note) { _, facts, _ in facts.unit = nil },
        Case(.kblinkdUnit, "failed", .fail) { _, facts, _ in
            facts.unit = .init(activeState: "failed", unitFileState: "")
        },
        Case(.kblinkdAuthorization, "polkit and policy", .ok),
        Case(.kblinkdAuthorization, "no polkit, group", .note) { _, facts, _ in facts.polkitPresent = false },
        Case(.kblinkdAuthorization, "policy missing", .warn) { host, _, _ in host.remove(Doctor.policyFile) },
        Case(.kblinkdAuthorization, "no polkit, no group", .warn) { host, facts, _ in
            facts.polkitPresent = false
            try host.write("/etc/group", "root:x:0:\n")
        },
        Case(.kblinkdPermissions, "allowed", .ok),
        Case(.kblinkdPermissions, "after a password", .ok) { _, facts, _ in
            for action in PolkitAction.allCases { facts.permissions[action.id] = .afterAuthentication }
        },
        Case(.kblinkdPermissions, "refused", .warn) { _, facts, _ in
            for action in PolkitAction.allCases { facts.permissions[action.id] = .denied }
        },
        Case(.kblinkdPermissions, "no polkit, in the group", .ok) { _, facts, _ in facts.polkitPresent = false },
        Case(.kblinkdPermissions, "no polkit, not in the group", .warn) { _, facts, _ in
            facts.polkitPresent = false
            facts.userName = "bob"
        },
        Case(.bluezRunning, "found", .ok),
        Case(.bluezRunning, "not found", .fail) { _, facts, _ in
            facts.blueZRunning = false
            facts.adapters = []
        },
        Case(.bluezVersion, "found", .ok),
        Case(.bluezVersion, "no package", .note) { host, _, _ in host.remove("/var/lib/dpkg/status") },
        Case(.bluezVersion, "removed package", .note) { host, _, _ in
            try host.write(
                "/var/lib/dpkg/status", "Package: bluez\nStatus: deinstall ok config-files\nVersion: 5.79-1\n")
        },
        Case(.bluezKnownProblems, "5.79", .ok),
        Case(.bluezKnownProblems, "5.72: node removed", .note) { host, _, _ in
            try host.write(
                "/var/lib/dpkg/status", "Package: bluez\nStatus: install ok installed\nVersion: 5.72-0ubuntu5\n")
        },
        Case(.bluezKnownProblems, "5.77: ATT PDU lost during pairing", .note) { host, _, _ in
            try host.write("/var/lib/dpkg/status", "Package: bluez\nStatus: install ok installed\nVersion: 5.77-1\n")
        },
        Case(.bluezKnownProblems, "5.66: notifications lost", .warn) { host, _, _ in
            try host.write("/var/lib/dpkg/status", "Package: bluez\nStatus: install ok installed\nVersion: 5.66-1\n")
        },
        Case(.bluezKnownProblems, "unknown version", .note) { host, _, _ in host.remove("/var/lib/dpkg/status") },
        Case(.bluezExperimental, "-E", .ok),
        Case(.bluezExperimental, "main.conf", .ok) { host, _, _ in
            try host.write("/proc/612/cmdline", "/usr/libexec/bluetooth/bluetoothd\0")
            try host.write("/etc/bluetooth/main.conf", "[General]\nExperimental = true\n")
        },
        Case(.bluezExperimental, "provider off", .ok) { host, _, _ in host.remove("/etc/kblink/kblinkd.conf") },
        Case(.bluezExperimental, "missing", .warn) { host, _, _ in
            try host.write("/proc/612/cmdline", "/usr/libexec/bluetooth/bluetoothd\0--debug\0")
        },
        Case(.bluezInputConf, "found", .ok),
        Case(.bluezInputConf, "not found", .ok) { host, _, _ in host.remove("/etc/bluetooth/input.conf") },
        Case(.bluezInputConf, "idle timeout", .warn) { host, _, _ in
            try host.write("/etc/bluetooth/input.conf", "[General]\nIdleTimeout=15\n")
        },
        Case(.bluezInputConf, "unbonded allowed", .warn) { host, _, _ in
            try host.write("/etc/bluetooth/input.conf", "[General]\nClassicBondedOnly=false\n")
        },
        Case(.bluezInputConf, "persist before 5.79", .warn) { host, _, _ in
            try host.write("/var/lib/dpkg/status", "Package: bluez\nStatus: install ok installed\nVersion: 5.77-1\n")
        },
        Case(.bluezMainConf, "found", .ok),
        Case(.bluezMainConf, "not found", .ok) { host, _, _ in host.remove("/etc/bluetooth/main.conf") },
        Case(.bluezMainConf, "no reconnection", .warn) { host, _, _ in
            try host.write("/etc/bluetooth/main.conf", "[Policy]\nReconnectAttempts=0\n")
        },
        Case(.bluezMainConf, "repairing always", .warn) { host, _, _ in
            try host.write("/etc/bluetooth/main.conf", "[General]\nJustWorksRepairing = always\n")
        },
        Case(.adapterPowered, "powered", .ok, subject: "hci0"),
        Case(.adapterPowered, "off", .fail, subject: "hci0") { _, facts, _ in facts.adapters[0].powered = false },
        Case(.adapterPowered, "none", .fail) { _, facts, _ in facts.adapters = [] },
        Case(.adapterRfkill, "unblocked", .ok),
        Case(.adapterRfkill, "no switch", .ok) { host, _, _ in host.remove("/sys/class/rfkill/rfkill0/type") },
        Case(.adapterRfkill, "soft", .fail) { host, _, _ in try host.write("/sys/class/rfkill/rfkill0/soft", "1\n") },
        Case(.adapterRfkill, "hard", .fail) { host, _, _ in try host.write("/sys/class/rfkill/rfkill0/hard", "1\n") },
        Case(.adapterAutosuspend, "on", .ok, subject: "hci0"),
        Case(.adapterAutosuspend, "not USB", .ok, subject: "hci0") { host, _, _ in
            host.remove("/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/idVendor")
        },
        Case(.adapterAutosuspend, "virtual", .ok, subject: "hci0") { host, _, _ in
            host.remove("/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/bluetooth/hci0/device")
        },
        Case(.adapterAutosuspend, "sysfs unreadable", .note, subject: "hci0") { host, _, _ in
            host.remove("/sys/class/bluetooth/hci0")
        },
        Case(.adapterAutosuspend, "auto", .warn, subject: "hci0") { host, _, _ in
            try host.write("/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/power/control", "auto\n")
        },
        Case(.keyboardPaired, "paired", .ok, subject: keychron),
        Case(.keyboardPaired, "no keyboard", .note) { _, facts, _ in facts.kblinkd?.keyboards = [] },
        Case(.keyboardPaired, "connected unpaired", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.paired = false
        },
        Case(.keyboardBonded, "bonded", .ok, subject: keychron),
        Case(.keyboardBonded, "no bond", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.bonded = false
        },
        Case(.keyboardTrusted, "trusted", .ok, subject: keychron),
        Case(.keyboardTrusted, "not trusted", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.trusted = false
        },
        Case(.keyboardHealth, "working", .ok, subject: keychron),
        Case(.keyboardHealth, "not published", .note, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].health = nil
        },
        Case(.keyboardHealth, "broken", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].health = "no-input-device"
        },
        Case(.keyboardHIDDriver, "hid-apple, known non-Apple, auto", .ok, subject: keychron),
        Case(.keyboardHIDDriver, "no HID device", .note, subject: keychron) { host, _, _ in
            host.remove("/sys/bus/hid/devices/0005:05AC:024F.0001/uevent")
        },
        Case(.keyboardHIDDriver, "hid-apple, fnmode 1", .warn, subject: keychron) { host, _, _ in
            try host.write("/sys/module/hid_apple/parameters/fnmode", "1\n")
        },
        Case(.keyboardHIDDriver, "hid-apple, unknown name, auto", .warn, subject: keychron) { host, _, _ in
            try host.hidDevice("0005:05AC:024F.0001", name: "BT Keyboard", address: Keychron.address, driver: "apple")
        },
        Case(.keyboardHIDDriver, "Apple's own keyboard, fnmode 1", .ok, subject: keychron) { host, facts, _ in
            try host.write("/sys/module/hid_apple/parameters/fnmode", "1\n")
            facts.kblinkd?.keyboards[0].summary.name = "Magic Keyboard"
        },
        Case(.keyboardHidraw, "kblinkd's and the seat's", .ok, subject: via),
        Case(.keyboardHidraw, "no node", .warn, subject: via) { host, _, _ in
            host.remove("/sys/class/hidraw/hidraw0/device")
        },
        Case(.keyboardHidraw, "rule missing", .warn, subject: via) { host, _, _ in
            host.remove("/usr/lib/udev/rules.d/70-kblink-via.rules")
        },
        Case(.keyboardHidraw, "node not kblinkd's", .warn, subject: via) { host, _, _ in
            try host.write("/etc/group", "kblink:x:990:alice\nplugdev:x:\(FakeHost.ownGroupID):\n")
        },
        Case(.keyboardHidraw, "seat cannot reach it", .note, subject: via) { host, _, _ in
            host.remove("/etc/udev/rules.d/71-kblink-via-user.rules")
        },
        Case(.keyboardStudioLock, "not Studio", .ok, subject: keychron),
        Case(.keyboardStudioLock, "Studio, lock not published", .note, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.driver = "zmk-studio"
        },
        Case(.keyboardStudioLock, "Studio, locked", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.driver = "zmk-studio"
            facts.kblinkd?.keyboards[0].studioLock = .locked
        },
        Case(.keyboardStudioLock, "Studio, unlocked", .ok, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.driver = "zmk-studio"
            facts.kblinkd?.keyboards[0].studioLock = .unlocked
        },
        Case(.keyboardStudioLock, "Studio, not connected", .note, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.driver = "zmk-studio"
            facts.kblinkd?.keyboards[0].studioLock = .unknown
        },
        Case(.keyboardBattery, "charged", .ok, subject: keychron),
        Case(.keyboardBattery, "not reported", .ok, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.battery = []
        },
        Case(.keyboardBattery, "low", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].summary.battery = [
                .init(part: "left", level: 80), .init(part: "right", level: 5),
            ]
        },
        Case(.keyboardDrift, "none", .ok, subject: keychron),
        Case(.keyboardDrift, "not read", .ok, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].driftedBindings = nil
        },
        Case(.keyboardDrift, "drifted", .warn, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].driftedBindings = [
                DiffRow(zone: "standard", layer: 1, key: "ESC", old: "KC_ESC", new: "KC_GRV", origin: "device")
            ]
        },
        Case(.keyboardAutoApply, "on", .ok, subject: keychron),
        Case(.keyboardAutoApply, "no session", .ok, subject: keychron) { _, facts, _ in
            facts.kblinkd?.keyboards[0].applyOnConnect = nil
        },
        Case(.sessionOSKAgent, "running", .ok),
        Case(.sessionOSKAgent, "not wanted", .ok) { host, _, environment in
            host.remove("/proc/2044/cmdline")
            environment["XDG_CURRENT_DESKTOP"] = "sway"
        },
        Case(.sessionOSKAgent, "wanted, not running", .note) { host, _, _ in host.remove("/proc/2044/cmdline") },
        Case(.sessionDesktop, "found", .ok),
        Case(.sessionDesktop, "not found", .ok) { _, _, environment in environment = [:] },
    ]

    @Test(arguments: cases) func check(_ row: Case) throws {
        let host = try FakeHost.healthy()
        var facts = FakeHost.healthyFacts()
        var environment = FakeHost.desktop
        try row.change(host, &facts, &environment)
        let checks = Self.run(host, facts, environment: environment)
        let check = try #require(checks.first { $0.id == row.id && (row.subject == nil || $0.subject == row.subject) })
        #expect(check.status == row.expected, "\(check.found)")
        if check.status >= .warn { #expect(check.fix != nil, "\(check.id) gives no fix") }
    }

    @Test func everyCheckHasARowForEachOutcomeItCanHave() {
        let covered = Set(Self.cases.map(\.id))
        #expect(covered == Set(DoctorCheckID.all))
    }

    /// An adapter without a USB device says why: another bus, no parent device at all, or no sysfs entry to read.
    @Test func autosuspendSaysWhyNoUSB() throws {
        func found(_ change: (FakeHost) -> Void) throws -> String {
            let host = try FakeHost.healthy()
            change(host)
            let checks = Self.run(host, FakeHost.healthyFacts())
            return try #require(checks.first { $0.id == .adapterAutosuspend && $0.subject == "hci0" }).found
        }
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4"
        #expect(try found { $0.remove(usb + "/idVendor") } == "not a USB adapter: no USB autosuspend")
        #expect(
            try found { $0.remove(usb + "/1-4:1.0/bluetooth/hci0/device") }
                == "a virtual adapter (no parent device): no USB autosuspend")
        #expect(
            try found { $0.remove("/sys/class/bluetooth/hci0") }
                == "could not read /sys/class/bluetooth/hci0: USB autosuspend not checked")
        #expect(try found { _ in } == "USB 8087:0029, btusb enable_autosuspend=Y, power/control=on")
    }

    @Test func theFRowFollowsFnmodeAndTheKernelsList() {
        #expect(Doctor.fRow(fnmode: 3, nonAppleByName: false).effective == 1)
        #expect(Doctor.fRow(fnmode: 3, nonAppleByName: true).effective == 2)
        #expect(Doctor.fRow(fnmode: 2, nonAppleByName: false).effective == 2)
        #expect(Doctor.fRow(fnmode: 0, nonAppleByName: false).effective == 0)
    }

    @Test func blueZVersionsParseFromDebianAndUpstream() {
        #expect(Doctor.BlueZVersion(parsing: "5.66-1+deb12u2") == Doctor.BlueZVersion(5, 66))
        #expect(Doctor.BlueZVersion(parsing: "1:5.72-0ubuntu5") == Doctor.BlueZVersion(5, 72))
        #expect(Doctor.BlueZVersion(parsing: "5.79") == Doctor.BlueZVersion(5, 79))
        #expect(Doctor.BlueZVersion(parsing: "bluez") == nil)
    }

    @Test func oneDeviceLimitsTheKeyboardChecks() throws {
        let host = try FakeHost.healthy()
        let checks = Doctor(
            root: HostRoot(host.root), bus: FakeHost.healthyFacts(), environment: FakeHost.desktop, device: "via"
        ).checks()
        #expect(Set(checks.compactMap(\.subject).filter { $0.contains(":") }) == [VIABoard.address])
        let none = Doctor(
            root: HostRoot(host.root), bus: FakeHost.healthyFacts(), environment: FakeHost.desktop, device: "nothing"
        ).checks()
        #expect(none.first { $0.id == .keyboardPaired }?.status == .fail)
    }
}
