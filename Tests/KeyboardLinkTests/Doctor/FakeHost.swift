import Glibc
import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDoctor
@testable import KeyboardLinkSupport

/// A host's `/sys`, `/proc`, `/etc`, `/dev`, `/usr` and `/var` built under a temporary directory, laid out as the
/// kernel and Debian lay them out (sysfs links relative, as the kernel makes them), for ``Doctor`` to read.
final class FakeHost: @unchecked Sendable {
    // @unchecked: a FakeHost belongs to one test and is only used from that test's task.
    let directory: TemporaryDirectory
    private var links: [String] = []

    var root: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory()
    }

    deinit {
        // Links first, so that removing the directory does not descend through a link into what it points at.
        for link in links { unlink(root + link) }
    }

    /// Writes `text` at `hostPath`, making its directories.
    func write(_ hostPath: String, _ text: String) throws {
        try FileStore().makeDirectory(root + FileStore.split(hostPath).directory)
        try FileStore().writeAtomically(Array(text.utf8), to: root + hostPath, mode: 0o644)
    }

    /// Makes the directory `hostPath` and its parents.
    func makeDirectory(_ hostPath: String) throws {
        try FileStore().makeDirectory(root + hostPath)
    }

    /// Removes the file at `hostPath`.
    func remove(_ hostPath: String) {
        unlink(root + hostPath)
    }

    /// Makes `hostPath` a symbolic link to `target` (relative, as sysfs's).
    func link(_ hostPath: String, to target: String) throws {
        try FileStore().makeDirectory(root + FileStore.split(hostPath).directory)
        unlink(root + hostPath)
        #expect(symlink(target, root + hostPath) == 0)
        links.append(hostPath)
    }

    /// The name of the group this process's files get (the owner group of what the test writes).
    static var ownGroupID: UInt32 { getegid() }

    /// Every file and link under the root, as host paths, sorted.
    func listing() -> [String] {
        var paths: [String] = []
        func walk(_ hostPath: String) {
            var information = stat()
            guard lstat(root + hostPath, &information) == 0 else { return }
            if (information.st_mode & S_IFMT) == S_IFDIR {
                for name in (try? FileStore().list(root + hostPath)) ?? [] {
                    walk(hostPath == "/" ? "/" + name : hostPath + "/" + name)
                }
            } else {
                paths.append(hostPath)
            }
        }
        walk("/")
        return paths.sorted()
    }

    /// A host where every check is OK: BlueZ 5.79 with experimental features, a powered USB adapter that never
    /// autosuspends, a Keychron (a name the kernel's hid-apple list knows) bound to hid-apple with fnmode 3, a VIA
    /// keyboard whose hidraw node is kblinkd's and reachable by the seat, polkit's actions installed, the desktop's
    /// agent running.
    static func healthy() throws -> FakeHost {
        let host = try FakeHost()
        try host.write(
            "/var/lib/dpkg/status",
            """
            Package: bash
            Status: install ok installed
            Version: 5.2.15-2+b2

            Package: bluez
            Status: install ok installed
            Version: 5.79-1

            """)
        try host.write("/etc/bluetooth/main.conf", "[General]\nFastConnectable = true\n[Policy]\nReconnectAttempts=7\n")
        try host.write("/etc/bluetooth/input.conf", "[General]\nUserspaceHID=persist\nIdleTimeout=0\n")
        try host.write("/etc/kblink/kblinkd.conf", "[Battery]\nProvider=true\n")
        try host.write("/proc/612/cmdline", "/usr/libexec/bluetooth/bluetoothd\0-E\0")
        try host.write("/proc/2044/cmdline", "/usr/bin/kblink\0osk-agent\0")
        try host.write("/proc/1/cmdline", "/sbin/init\0")
        try host.write(Doctor.policyFile, "<policyconfig/>\n")
        try host.write("/etc/group", "kblink:x:990:alice\nkblinkd:x:\(ownGroupID):\n")
        // The adapter: hci0 on USB device 1-4 (Intel 8087:0029), interface 1-4:1.0.
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-4"
        try host.write(usb + "/idVendor", "8087\n")
        try host.write(usb + "/idProduct", "0029\n")
        try host.write(usb + "/power/control", "on\n")
        try host.makeDirectory(usb + "/1-4:1.0/bluetooth/hci0")
        try host.link(
            "/sys/class/bluetooth/hci0", to: "../../devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/bluetooth/hci0")
        try host.link(usb + "/1-4:1.0/bluetooth/hci0/device", to: "../../../1-4:1.0")
        try host.write("/sys/module/btusb/parameters/enable_autosuspend", "Y\n")
        try host.write("/sys/class/rfkill/rfkill0/type", "bluetooth\n")
        try host.write("/sys/class/rfkill/rfkill0/name", "hci0\n")
        try host.write("/sys/class/rfkill/rfkill0/soft", "0\n")
        try host.write("/sys/class/rfkill/rfkill0/hard", "0\n")
        // The Keychron: claims an Apple keyboard's IDs and binds hid-apple.
        try host.hidDevice(
            "0005:05AC:024F.0001", name: "Keychron K2", address: Keychron.address, driver: "apple")
        try host.write("/sys/module/hid_apple/parameters/fnmode", "3\n")
        // The VIA keyboard: bound to hid-generic, its raw HID node kblinkd's and the seat's.
        try host.hidDevice("0005:3434:0A20.0002", name: "VIA Board", address: VIABoard.address, driver: "hid-generic")
        try host.link("/sys/class/hidraw/hidraw0/device", to: "../../../bus/hid/devices/0005:3434:0A20.0002")
        try host.write("/dev/hidraw0", "")
        try host.write(
            "/usr/lib/udev/rules.d/70-kblink-via.rules",
            "SUBSYSTEM!=\"hidraw\", GOTO=\"kblink_via_end\"\n"
                + "PROGRAM==\"/usr/bin/kblinkd --check-hidraw $sys$devpath/device/report_descriptor\", "
                + "GROUP=\"kblinkd\", MODE=\"0660\"\n")
        try host.write("/etc/udev/rules.d/71-kblink-via-user.rules", "# Written by kblink\n")
        return host
    }

    /// A HID device in /sys/bus/hid/devices with its uevent and driver link.
    func hidDevice(_ name: String, name hidName: String, address: String, driver: String?) throws {
        let path = "/sys/bus/hid/devices/\(name)"
        let id = name.split(separator: ".")[0].split(separator: ":")
        try write(
            path + "/uevent",
            "DRIVER=\(driver ?? "")\nHID_ID=\(id[0]):0000\(id[1]):0000\(id[2])\nHID_NAME=\(hidName)\n"
                + "HID_UNIQ=\(address.lowercased())\nMODALIAS=hid:b0005\n")
        if let driver { try link(path + "/driver", to: "../../../../bus/hid/drivers/\(driver)") }
    }

    /// The bus facts of a healthy system for `healthy()`'s host.
    static func healthyFacts() -> BusFacts {
        BusFacts(
            kblinkd: .init(
                version: KBlink.version,
                keyboards: [
                    Keychron.keyboard(), VIABoard.keyboard(),
                ]),
            unit: .init(activeState: "active", unitFileState: "enabled"), polkitPresent: true,
            permissions: Dictionary(
                uniqueKeysWithValues: (PolkitAction.allCases.map(\.id) + [BusFacts.fixHostAction]).map {
                    ($0, BusFacts.Permission.allowed)
                }),
            blueZRunning: true, adapters: [.init(name: "hci0", address: "00:1A:7D:DA:71:00", powered: true)],
            userName: "alice")
    }

    static let desktop = ["XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "wayland"]
}

/// A keyboard kblinkd reports.
func summary(
    _ address: String, _ name: String, paired: Bool = true, bonded: Bool = true, trusted: Bool = true,
    connected: Bool = true, battery: [UInt8] = [80], driver: String = "none", health: KeyboardHealth = .working
) -> KeyboardSummary {
    KeyboardSummary(
        path: ObjectPath(validating: "/org/kblink1/keyboards/dev_" + address.replacingEvery(":", with: "_"))!,
        address: address, name: name, alias: name, paired: paired, trusted: trusted, connected: connected,
        battery: battery.map { .init(part: "main", level: $0) }, firmware: [:], driver: driver, bonded: bonded,
        health: health)
}

enum Keychron {
    static let address = "DC:2C:26:00:00:01"
    static func keyboard() -> BusFacts.Keyboard {
        BusFacts.Keyboard(
            summary: summary(address, "Keychron K2"), applyOnConnect: true, driftedBindings: [], health: "working")
    }
}

enum VIABoard {
    static let address = "DC:2C:26:00:00:02"
    static func keyboard() -> BusFacts.Keyboard {
        BusFacts.Keyboard(
            summary: summary(address, "VIA Board", driver: "via"), applyOnConnect: false, driftedBindings: [],
            health: "working")
    }
}

extension Array where Element == DoctorCheck {
    /// The checks not OK, as `id subject`.
    var reported: Set<String> {
        Set(filter { $0.status != .ok }.map { $0.id.rawValue + ($0.subject.map { " " + $0 } ?? "") })
    }
}
