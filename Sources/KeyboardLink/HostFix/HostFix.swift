import KeyboardLinkSupport

/// A change to this computer that `kblink doctor --fix` may make: safe (it changes how one driver or one device
/// behaves, nothing that holds data), reversible (`--undo` takes it back from the manifest) and local (files under
/// `/etc` and live values under `/sys`). `kblink-fix-host` applies them as root; `kblink doctor` only names them.
package enum HostFix: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `hid_apple`'s `fnmode` (0 to 3): a `modprobe.d` drop-in for the next time the module loads, and the live value
    /// in `/sys/module/hid_apple/parameters/fnmode`.
    case hidAppleFnmode(UInt8)
    /// A udev rule (one file per adapter) that keeps the Bluetooth adapter's USB device (vendor and product, 4 hex
    /// digits each) awake (`power/control` `on`), and the live value for the device at
    /// `/sys/bus/usb/devices/<usbDevice>`, once the helper has checked that this device has that vendor and product.
    case adapterAutosuspendOff(vendor: String, product: String, usbDevice: String)
    /// A udev rule giving the person at the seat (`uaccess`) the hidraw nodes that are a VIA raw HID interface alone,
    /// as kblinkd's own rule decides (`kblinkd --check-hidraw`), so that VIA's web app can reach the keyboard. The
    /// program the rule runs is not the caller's to choose: the helper reads it from kblinkd's installed rule
    /// (``viaRuleName``) and checks that only root can change it (``HostFixer``).
    case viaHidrawAccess

    /// The one-word argument `kblink-fix-host apply` takes: `hid-apple-fnmode=2`,
    /// `adapter-autosuspend-off=8087:0029@1-4`, `via-hidraw-access`.
    package var argument: String {
        switch self {
        case .hidAppleFnmode(let mode): "hid-apple-fnmode=\(mode)"
        case .adapterAutosuspendOff(let vendor, let product, let device):
            "adapter-autosuspend-off=\(vendor):\(product)@\(device)"
        case .viaHidrawAccess: "via-hidraw-access"
        }
    }

    /// Parses ``argument``; nil for anything else (the helper runs as root: every field is checked).
    package init?(argument: String) {
        if argument == "via-hidraw-access" {
            self = .viaHidrawAccess
            return
        }
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let name = argument[..<equals]
        let value = String(argument[argument.index(after: equals)...])
        switch name {
        case "hid-apple-fnmode":
            guard let mode = UInt8(value), mode <= 3 else { return nil }
            self = .hidAppleFnmode(mode)
        case "adapter-autosuspend-off":
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let ids = parts[0].split(separator: ":", omittingEmptySubsequences: false)
            guard ids.count == 2, Self.isHexID(ids[0]), Self.isHexID(ids[1]), Self.isUSBDeviceName(parts[1]) else {
                return nil
            }
            self = .adapterAutosuspendOff(
                vendor: ids[0].lowercased(), product: ids[1].lowercased(), usbDevice: String(parts[1]))
        default: return nil
        }
    }

    package var description: String { argument }

    /// What the fix changes, in a sentence for people (shown before asking).
    package var summary: String {
        switch self {
        case .hidAppleFnmode(let mode):
            "set hid_apple fnmode=\(mode): write \(Self.fnmodeDropIn) and \(Self.fnmodeParameter) (\(mode))"
        case .adapterAutosuspendOff(let vendor, let product, let device):
            "keep the Bluetooth adapter \(vendor):\(product) awake: write "
                + "\(Self.autosuspendRule(vendor: vendor, product: product)) and "
                + "/sys/bus/usb/devices/\(device)/power/control (on)"
        case .viaHidrawAccess:
            "let the person at the seat open VIA raw HID nodes (VIA's web app): write \(Self.viaAccessRule); "
                + "applies to nodes added from now on (reconnect the keyboard, or udevadm trigger)"
        }
    }

    /// The files the fix writes (paths from `/`), each with its text; `checker` is the program kblinkd's installed VIA
    /// rule runs, which the VIA fix's rule runs too (``HostFixer`` finds and checks it).
    package func files(checker: String) -> [(path: String, text: String)] {
        switch self {
        case .hidAppleFnmode(let mode):
            [(Self.fnmodeDropIn, Self.header + "options hid_apple fnmode=\(mode)\n")]
        case .adapterAutosuspendOff(let vendor, let product, _):
            [
                (
                    Self.autosuspendRule(vendor: vendor, product: product),
                    Self.header
                        + "# Keeps the Bluetooth adapter \(vendor):\(product) from autosuspending, so that the first key "
                        + "pressed after a pause is not lost.\n"
                        + "ACTION==\"add|change\", SUBSYSTEM==\"usb\", ATTR{idVendor}==\"\(vendor)\", "
                        + "ATTR{idProduct}==\"\(product)\", TEST==\"power/control\", ATTR{power/control}=\"on\"\n"
                )
            ]
        case .viaHidrawAccess:
            [
                (
                    Self.viaAccessRule,
                    Self.header
                        + "# The person at the seat may open a hidraw node that is a VIA raw HID interface alone "
                        + "(usage page 0xFF60), never a key interface.\n"
                        + "ACTION!=\"add|change\", GOTO=\"kblink_via_user_end\"\n"
                        + "SUBSYSTEM!=\"hidraw\", GOTO=\"kblink_via_user_end\"\n"
                        + "PROGRAM==\"\(checker) --check-hidraw $sys$devpath/device/report_descriptor\", "
                        + "TAG+=\"uaccess\"\n"
                        + "LABEL=\"kblink_via_user_end\"\n"
                )
            ]
        }
    }

    /// The live values the fix writes (paths from `/`), each with its new value.
    package var liveValues: [(path: String, value: String)] {
        switch self {
        case .hidAppleFnmode(let mode): [(Self.fnmodeParameter, "\(mode)")]
        case .adapterAutosuspendOff(_, _, let device): [("/sys/bus/usb/devices/\(device)/power/control", "on")]
        case .viaHidrawAccess: []
        }
    }

    /// The first lines of every file kblink writes: they name kblink, so a person reading it knows where it came from
    /// (and `--undo` removes only files that start with it).
    package static let header = "# Written by kblink (kblink doctor --fix); 'kblink doctor --undo' removes it.\n"
    /// The `modprobe.d` drop-in for `hid_apple`.
    package static let fnmodeDropIn = "/etc/modprobe.d/kblink-hid-apple.conf"
    /// `hid_apple`'s live `fnmode`.
    package static let fnmodeParameter = "/sys/module/hid_apple/parameters/fnmode"
    /// The udev rule keeping the adapter `vendor`:`product` awake: one file per adapter, so that fixing a second
    /// adapter keeps the first one's rule.
    package static func autosuspendRule(vendor: String, product: String) -> String {
        "\(autosuspendRulePrefix)\(vendor)-\(product).rules"
    }
    static let autosuspendRulePrefix = "/etc/udev/rules.d/50-kblink-bluetooth-autosuspend-"
    /// The udev rule giving the seat VIA's raw HID nodes.
    package static let viaAccessRule = "/etc/udev/rules.d/71-kblink-via-user.rules"
    /// Where the helper records what it wrote, for `--undo`: a directory of root's own (never kblinkd's state
    /// directory, whose owner could otherwise tell root what to write where).
    package static let manifest = "/var/lib/kblink-fix-host/manifest"

    /// kblinkd's own udev rule for VIA raw HID nodes, installed with it.
    package static let viaRuleName = "70-kblink-via.rules"
    /// Where udev rules live: packaged (`/usr/lib`, `/lib`), installed by `make install` (`/usr/local/lib`), then the
    /// administrator's (`/etc`), which overrides a packaged rule of the same name.
    package static let udevRuleDirectories = [
        "/usr/lib/udev/rules.d", "/lib/udev/rules.d", "/usr/local/lib/udev/rules.d", "/etc/udev/rules.d",
    ]

    /// The program a udev rule runs (`PROGRAM=="/usr/bin/kblinkd --check-hidraw ..."`), when it names one.
    package static func checkerPath(in rule: String) -> String? {
        for line in rule.split(separator: "\n") where !line.hasPrefix("#") {
            for field in line.split(separator: ",") {
                let trimmed = field.drop { $0 == " " }
                guard trimmed.hasPrefix("PROGRAM==\"") else { continue }
                return trimmed.dropFirst("PROGRAM==\"".count).split(separator: " ").first.map(String.init)
            }
        }
        return nil
    }

    /// Whether `path` may go into a rule as the program it runs: an absolute path to a file named `kblinkd`, of ASCII
    /// letters, digits and `/._-` only (nothing udev's rule syntax reads), without `..`.
    package static func isCheckerPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.hasSuffix("/kblinkd") && path.utf8.count < 256 && !path.containsText("..")
            && path.utf8.allSatisfy {
                isASCIILetterOrDigit($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            }
    }

    /// Whether `path` is a file some fix writes: the only files `--undo` removes.
    package static func isFixFile(_ path: String) -> Bool {
        if [fnmodeDropIn, viaAccessRule].contains(path) { return true }
        guard path.hasPrefix(autosuspendRulePrefix), path.hasSuffix(".rules") else { return false }
        let ids = path.dropFirst(autosuspendRulePrefix.count).dropLast(".rules".count)
            .split(separator: "-", omittingEmptySubsequences: false)
        return ids.count == 2 && isHexID(ids[0]) && isHexID(ids[1])
    }

    /// Whether `path` is a live value some fix writes, and `value` one it may write back (a short word such as `auto`
    /// or `1`): the only live values `--undo` writes.
    package static func isLiveValue(_ path: String, _ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.count <= 16, value.utf8.allSatisfy(isASCIILetterOrDigit) else { return false }
        if path == fnmodeParameter { return true }
        let prefix = "/sys/bus/usb/devices/"
        let suffix = "/power/control"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix) else { return false }
        let device = path.dropFirst(prefix.count).dropLast(suffix.count)
        return isUSBDeviceName(device)
    }

    /// Four ASCII hex digits (a USB vendor or product ID). Every check here is on bytes: Swift's `Character`
    /// properties look at a grapheme's first scalar only, so a combining or prepended scalar could carry a quote or a
    /// comma past them.
    static func isHexID(_ text: Substring) -> Bool {
        text.utf8.count == 4
            && text.utf8.allSatisfy { isASCIIDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) }
    }

    /// A USB device's sysfs name: `1-4`, `3-1.2` (bus, ports, ASCII); never a path.
    static func isUSBDeviceName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count < 32 && text.utf8.first.map(isASCIIDigit) == true
            && text.utf8.allSatisfy { isASCIIDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            && !text.containsText("..")
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        isASCIIDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
