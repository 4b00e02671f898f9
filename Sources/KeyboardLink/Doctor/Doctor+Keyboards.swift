import KBlinkAPI
import KeyboardLinkHostFix

extension Doctor {
    /// `hid_apple`'s live `fnmode`.
    static let fnmodeParameter = HostFix.fnmodeParameter
    /// The names `hid-apple` treats as not Apple's (drivers/hid/hid-apple.c, `non_apple_keyboards`, matched as a
    /// prefix of the HID device's name): with `fnmode=3` (auto) their F-row sends F-keys first.
    package static let kernelNonAppleKeyboards = [
        "SONiX USB DEVICE", "SONiX AK870 PRO", "SONiX KN85 Keyboard", "Keychron", "AONE", "GANSS", "Hailuck",
        "Jamesdonkey", "A3R", "hfd.cn", "WKB603", "TH87", "HFD Epomaker TH87", "2.4G Wireless Receiver",
    ]
    /// Where udev rules live (packaged, then the administrator's).
    static let udevRuleDirectories = HostFix.udevRuleDirectories
    /// kblinkd's rule for VIA raw HID nodes.
    static let viaRuleName = HostFix.viaRuleName

    /// Every keyboard check of every keyboard, or each once when there is none to look at.
    func keyboardChecks() -> [DoctorCheck] {
        let keyboards = self.keyboards
        guard !keyboards.isEmpty else {
            let missing = device.map { "no paired keyboard matches '\($0)' (see 'kblink list')" }
            return Self.keyboardIDs.map { id in
                if id == .keyboardPaired, let missing {
                    return DoctorCheck(id, .fail, found: missing, fix: "kblink pair DEVICE")
                }
                return DoctorCheck(
                    id, .note,
                    found: bus.kblinkd == nil ? "kblinkd is not running: no keyboard to check" : "no paired keyboard",
                    fix: id == .keyboardPaired && bus.kblinkd != nil ? "kblink scan, then kblink pair DEVICE" : nil)
            }
        }
        return keyboards.flatMap(checks(of:))
    }

    static let keyboardIDs: [DoctorCheckID] = [
        .keyboardPaired, .keyboardBonded, .keyboardTrusted, .keyboardHealth, .keyboardHIDDriver, .keyboardHidraw,
        .keyboardStudioLock, .keyboardBattery, .keyboardDrift, .keyboardAutoApply,
    ]

    func checks(of keyboard: BusFacts.Keyboard) -> [DoctorCheck] {
        let summary = keyboard.summary
        let subject = summary.address
        let name = "\(summary.alias) (\(summary.address))"
        var checks: [DoctorCheck] = []
        checks.append(
            summary.paired
                ? DoctorCheck(
                    .keyboardPaired, subject: subject, .ok,
                    found: "\(name) is paired" + (summary.connected ? " and connected" : ", not connected now"))
                : DoctorCheck(
                    .keyboardPaired, subject: subject, .warn, found: "\(name) is connected but not paired",
                    why: "an unpaired keyboard's link is not encrypted and it is forgotten when it leaves",
                    fix: "kblink pair \(subject)"))
        checks.append(
            summary.bonded || !summary.paired
                ? DoctorCheck(
                    .keyboardBonded, subject: subject, .ok,
                    found: summary.bonded ? "BlueZ holds its keys (bonded)" : "not paired: no bond expected")
                : DoctorCheck(
                    .keyboardBonded, subject: subject, .warn, found: "paired without a bond (no stored keys)",
                    why: "it must pair again every time it connects",
                    fix: "kblink forget \(subject), then kblink pair \(subject)"))
        checks.append(
            summary.trusted
                ? DoctorCheck(.keyboardTrusted, subject: subject, .ok, found: "trusted: it reconnects by itself")
                : DoctorCheck(
                    .keyboardTrusted, subject: subject, .warn, found: "not trusted",
                    why: "BlueZ does not let it reconnect by itself after sleep or a restart",
                    fix: "kblink trust \(subject)"))
        checks.append(healthCheck(keyboard))
        let hidDevices = self.hidDevices(of: summary.address)
        checks.append(hidDriverCheck(summary, hidDevices))
        checks.append(hidrawCheck(summary))
        checks.append(studioLockCheck(keyboard))
        checks.append(batteryCheck(summary))
        checks.append(driftCheck(keyboard))
        checks.append(
            DoctorCheck(
                .keyboardAutoApply, subject: subject, .ok,
                found: keyboard.applyOnConnect.map {
                    $0
                        ? "on: kblinkd writes the pushed keymap back when the keyboard connects holding something else"
                        : "off: kblinkd leaves the keyboard's keymap alone when it connects"
                } ?? "no keymap session (not paired)"))
        return checks
    }

    /// The ZMK Studio lock, as kblinkd publishes it (`StudioLock`).
    func studioLockCheck(_ keyboard: BusFacts.Keyboard) -> DoctorCheck {
        let subject = keyboard.summary.address
        guard keyboard.summary.driver == "zmk-studio" else {
            return DoctorCheck(.keyboardStudioLock, subject: subject, .ok, found: "not a ZMK Studio keyboard")
        }
        let why =
            "a locked ZMK Studio keyboard refuses keymap reads and writes (kblink keymap push, pull, auto-apply) "
            + "until its unlock key is pressed"
        switch keyboard.studioLock {
        case .locked?:
            return DoctorCheck(
                .keyboardStudioLock, subject: subject, .warn, found: "locked for ZMK Studio", why: why,
                fix: "press the keyboard's &studio_unlock key (a key bound to it in the keymap; ZMK's docs: "
                    + "https://zmk.dev/docs/features/studio); kblink also asks for it when a push or pull meets "
                    + "the lock")
        case .unlocked?:
            return DoctorCheck(.keyboardStudioLock, subject: subject, .ok, found: "unlocked for ZMK Studio")
        case .unknown?, .notStudio?:
            return DoctorCheck(
                .keyboardStudioLock, subject: subject, .note,
                found: "a ZMK Studio keyboard whose lock state is unknown (not connected)",
                why: why + "; ZMK locks it again when it disconnects")
        case nil:
            return DoctorCheck(
                .keyboardStudioLock, subject: subject, .note,
                found: "a ZMK Studio keyboard: it may be locked (this kblinkd does not publish StudioLock)",
                why: why + "; kblink asks for it (an unlock prompt) when a push or pull meets the lock",
                fix: "press the keyboard's &studio_unlock key when kblink asks")
        }
    }

    func healthCheck(_ keyboard: BusFacts.Keyboard) -> DoctorCheck {
        let subject = keyboard.summary.address
        guard let health = keyboard.health else {
            return DoctorCheck(
                .keyboardHealth, subject: subject, .note, found: "this kblinkd does not publish a keyboard's Health")
        }
        let detail = keyboard.healthDetail.map { $0.isEmpty ? "" : " (\($0.escapedForTerminalLine))" } ?? ""
        switch KeyboardHealth(rawValue: health) {
        case .working?, .asleep?, .disconnected?:
            return DoctorCheck(.keyboardHealth, subject: subject, .ok, found: "health: \(health)")
        case .waiting?, .healing?:
            return DoctorCheck(
                .keyboardHealth, subject: subject, .note, found: "health: \(health)\(detail)",
                why: "kblinkd is waiting for the keyboard's input device, or healing it (docs/health.md)")
        case .failed?, nil:
            return DoctorCheck(
                .keyboardHealth, subject: subject, .warn, found: "health: \(health)\(detail)",
                why: "kblinkd reports the keyboard connected without a working input device: its keys may not arrive",
                fix: "kblink disconnect \(subject), then kblink connect \(subject); if it stays failed, kblink forget "
                    + "\(subject) and pair it again")
        }
    }

    /// A HID device in `/sys/bus/hid/devices`: its directory, name and bus/vendor/product, and its driver.
    struct HIDDevice {
        let path: String
        let name: String
        let vendor: String
        let driver: String?
    }

    /// The HID devices whose `HID_UNIQ` is `address`.
    func hidDevices(of address: String) -> [HIDDevice] {
        root.list("/sys/bus/hid/devices").compactMap { entry in
            let path = "/sys/bus/hid/devices/\(entry)"
            guard let uevent = root.text(path + "/uevent") else { return nil }
            var fields: [String: String] = [:]
            for line in uevent.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            guard fields["HID_UNIQ"]?.lowercased() == address.lowercased() else { return nil }
            let id = (fields["HID_ID"] ?? "").split(separator: ":")
            return HIDDevice(
                path: path, name: fields["HID_NAME"] ?? "", vendor: id.count == 3 ? String(id[1].suffix(4)) : "",
                driver: root.linkTargetName(path + "/driver"))
        }
    }

    /// What the F-row of a keyboard bound to `hid-apple` sends under `fnmode`.
    static func fRow(fnmode: Int, nonAppleByName: Bool) -> (effective: Int, text: String) {
        let effective = fnmode == 3 ? (nonAppleByName ? 2 : 1) : fnmode
        switch effective {
        case 0: return (0, "F1-F12 send F-keys; the media keys are off")
        case 1: return (1, "F1-F12 send media keys (brightness, volume); F-keys only with Fn held")
        default: return (2, "F1-F12 send F-keys; media keys with Fn held")
        }
    }

    func hidDriverCheck(_ summary: KeyboardSummary, _ devices: [HIDDevice]) -> DoctorCheck {
        let subject = summary.address
        guard !devices.isEmpty else {
            return DoctorCheck(
                .keyboardHIDDriver, subject: subject, summary.connected ? .note : .ok,
                found: summary.connected
                    ? "no HID device with its address in /sys/bus/hid/devices"
                    : "not connected: no HID device now")
        }
        let drivers = devices.map { "\($0.name.isEmpty ? "HID device" : $0.name): \($0.driver ?? "no driver")" }
        guard let apple = devices.first(where: { $0.driver == "apple" }) else {
            return DoctorCheck(
                .keyboardHIDDriver, subject: subject, .ok, found: drivers.joined(separator: "; "))
        }
        let names = [summary.name, summary.alias, apple.name, summary.firmware["Manufacturer"] ?? ""]
        let isApple = names.contains { $0.containsText("Apple") || $0.containsText("Magic Keyboard") }
        let nonAppleByName = Self.kernelNonAppleKeyboards.contains { apple.name.hasPrefix($0) }
        guard let fnmodeText = root.value(Self.fnmodeParameter), let fnmode = Int(fnmodeText) else {
            return DoctorCheck(
                .keyboardHIDDriver, subject: subject, .note,
                found: "bound to hid-apple; \(Self.fnmodeParameter) is not readable")
        }
        let row = Self.fRow(fnmode: fnmode, nonAppleByName: nonAppleByName)
        let found =
            "bound to hid-apple (\(apple.name), vendor \(apple.vendor)), fnmode=\(fnmode)"
            + (fnmode == 3 ? " (auto: \(row.effective))" : "") + ": \(row.text)"
        if isApple || row.effective != 1 {
            return DoctorCheck(.keyboardHIDDriver, subject: subject, .ok, found: found)
        }
        return DoctorCheck(
            .keyboardHIDDriver, subject: subject, .warn, found: found,
            why: "\(summary.alias) is not Apple's but claims an Apple keyboard's IDs, so the kernel binds hid-apple, "
                + "and its F-row sends media keys; its Fn key may send nothing the kernel understands. fnmode is one "
                + "setting for every keyboard hid-apple drives (an Apple keyboard's too)",
            fix: "kblink doctor --fix (options hid_apple fnmode=2 in /etc/modprobe.d and the live value)",
            automaticFix: .hidAppleFnmode(2),
            sources: ["drivers/hid/hid-apple.c (fnmode, non_apple_keyboards)"])
    }

    /// The installed rule named `name`, from the packaged and the administrator's rule directories.
    func udevRule(_ name: String) -> (path: String, text: String)? {
        for directory in Self.udevRuleDirectories.reversed() {
            if let text = root.text("\(directory)/\(name)") { return ("\(directory)/\(name)", text) }
        }
        return nil
    }

    func hidrawCheck(_ summary: KeyboardSummary) -> DoctorCheck {
        let subject = summary.address
        guard summary.driver == "via" else {
            return DoctorCheck(.keyboardHidraw, subject: subject, .ok, found: "not a VIA keyboard: no hidraw needed")
        }
        guard udevRule(Self.viaRuleName) != nil else {
            return DoctorCheck(
                .keyboardHidraw, subject: subject, .warn, found: "kblinkd's udev rule \(Self.viaRuleName) is missing",
                why: "kblinkd cannot open the keyboard's VIA interface (/dev/hidrawN): no keymap reads or writes",
                fix: "sudo apt install --reinstall kblinkd")
        }
        let nodes = root.list("/sys/class/hidraw").filter { node in
            root.text("/sys/class/hidraw/\(node)/device/uevent")?.lowercased().containsText(
                "hid_uniq=\(summary.address.lowercased())") ?? false
        }
        guard !nodes.isEmpty else {
            return DoctorCheck(
                .keyboardHidraw, subject: subject, summary.connected ? .warn : .ok,
                found: summary.connected ? "no hidraw node with its address" : "not connected: no hidraw node now",
                why: summary.connected ? "the kernel made no raw HID node: VIA cannot reach the keyboard" : "",
                fix: summary.connected ? "kblink disconnect \(subject), then kblink connect \(subject)" : nil)
        }
        let groups = nodes.map { "/dev/\($0) group \(root.groupName(of: "/dev/\($0)") ?? "missing")" }
        guard nodes.contains(where: { root.groupName(of: "/dev/\($0)") == "kblinkd" }) else {
            return DoctorCheck(
                .keyboardHidraw, subject: subject, .warn, found: groups.joined(separator: ", "),
                why: "no node of the keyboard is the group kblinkd's: kblinkd cannot reach its VIA interface",
                fix: "sudo udevadm trigger --action=change --subsystem-match=hidraw")
        }
        guard udevRule(HostFix.viaAccessRule.split(separator: "/").last.map(String.init) ?? "") != nil else {
            return DoctorCheck(
                .keyboardHidraw, subject: subject, .note,
                found: groups.joined(separator: ", ") + "; kblinkd can reach it, you cannot",
                why: "VIA's web app (the-via/app) runs as you: without access it says \"invalid protocol version\"",
                fix: "kblink doctor --fix (a udev rule giving the person at the seat VIA raw HID nodes, never a "
                    + "key interface)",
                automaticFix: .viaHidrawAccess)
        }
        return DoctorCheck(
            .keyboardHidraw, subject: subject, .ok,
            found: groups.joined(separator: ", ") + "; kblinkd and the person at the seat can reach it")
    }

    func batteryCheck(_ summary: KeyboardSummary) -> DoctorCheck {
        let subject = summary.address
        guard !summary.battery.isEmpty else {
            return DoctorCheck(.keyboardBattery, subject: subject, .ok, found: "no battery level reported")
        }
        let levels = summary.battery.map { "\($0.part) \($0.level)%" }.joined(separator: ", ")
        let low = summary.battery.filter { $0.level < 15 }
        guard !low.isEmpty else { return DoctorCheck(.keyboardBattery, subject: subject, .ok, found: levels) }
        return DoctorCheck(
            .keyboardBattery, subject: subject, .warn, found: levels,
            why: "a keyboard low on battery drops its link and loses key presses",
            fix: "charge " + low.map(\.part).joined(separator: " and "))
    }

    func driftCheck(_ keyboard: BusFacts.Keyboard) -> DoctorCheck {
        let subject = keyboard.summary.address
        guard let drifted = keyboard.driftedBindings else {
            return DoctorCheck(.keyboardDrift, subject: subject, .ok, found: "no keymap read to compare")
        }
        guard !drifted.isEmpty else {
            return DoctorCheck(.keyboardDrift, subject: subject, .ok, found: "the keyboard holds its base keymap")
        }
        let named = drifted.prefix(3).map { "layer \($0.layer) \($0.key) \($0.old)->\($0.new)" }
        return DoctorCheck(
            .keyboardDrift, subject: subject, .warn,
            found: "\(drifted.count) binding(s) differ from what kblinkd last wrote or read: "
                + named.joined(separator: ", ") + (drifted.count > 3 ? ", ..." : ""),
            why: "the keyboard's keymap was changed outside kblink (another computer, its own keys)",
            fix: "kblink keymap pull \(subject) (keep the keyboard's) or kblink keymap push \(subject) (write yours)")
    }
}
