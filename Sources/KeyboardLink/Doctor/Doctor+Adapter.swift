import KeyboardLinkHostFix

extension Doctor {
    static let btusbAutosuspend = "/sys/module/btusb/parameters/enable_autosuspend"

    /// The adapters to look at: BlueZ's, or the kernel's (`/sys/class/bluetooth/hciN`) when BlueZ is not running.
    var adapterNames: [String] {
        if !bus.adapters.isEmpty { return bus.adapters.map(\.name) }
        return root.list("/sys/class/bluetooth").filter { $0.hasPrefix("hci") && !$0.contains(":") }
    }

    func adapterChecks() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        if bus.adapters.isEmpty {
            checks.append(
                bus.blueZRunning
                    ? DoctorCheck(
                        .adapterPowered, .fail, found: "BlueZ has no adapter",
                        why: "without a Bluetooth adapter no keyboard can connect",
                        fix: "plug in or enable the Bluetooth adapter; see 'journalctl -k | grep -i bluetooth'")
                    : DoctorCheck(.adapterPowered, .note, found: "BlueZ is not running: no adapter to ask"))
        }
        for adapter in bus.adapters {
            checks.append(
                adapter.powered
                    ? DoctorCheck(.adapterPowered, subject: adapter.name, .ok, found: "\(adapter.address) is powered")
                    : DoctorCheck(
                        .adapterPowered, subject: adapter.name, .fail, found: "\(adapter.address) is powered off",
                        why: "a powered-off adapter connects nothing", fix: "bluetoothctl power on"))
        }
        checks.append(rfkillCheck())
        let names = adapterNames
        if names.isEmpty {
            checks.append(DoctorCheck(.adapterAutosuspend, .note, found: "no adapter in /sys/class/bluetooth"))
        }
        for name in names { checks.append(autosuspendCheck(name)) }
        return checks
    }

    func rfkillCheck() -> DoctorCheck {
        var blocked: [String] = []
        var hard = false
        var seen: [String] = []
        for entry in root.list("/sys/class/rfkill") {
            let base = "/sys/class/rfkill/\(entry)"
            guard root.value(base + "/type") == "bluetooth" else { continue }
            let name = root.value(base + "/name") ?? entry
            seen.append(name)
            if root.value(base + "/hard") == "1" {
                blocked.append("\(name) hard-blocked")
                hard = true
            } else if root.value(base + "/soft") == "1" {
                blocked.append("\(name) soft-blocked")
            }
        }
        if seen.isEmpty {
            return DoctorCheck(.adapterRfkill, .ok, found: "no rfkill switch for Bluetooth")
        }
        guard !blocked.isEmpty else {
            return DoctorCheck(.adapterRfkill, .ok, found: "not blocked (" + seen.joined(separator: ", ") + ")")
        }
        return DoctorCheck(
            .adapterRfkill, .fail, found: blocked.joined(separator: ", "),
            why: "a blocked radio sends nothing: no keyboard can connect",
            fix: hard
                ? "turn the radio on with the computer's switch or airplane-mode key (a hard block is hardware)"
                : "rfkill unblock bluetooth")
    }

    /// Where an adapter sits, as sysfs tells: on a USB device (`/sys/devices/.../1-4`), on some other bus, on no
    /// device at all (a virtual adapter such as `hci_vhci`'s), or not known because sysfs has no entry for it.
    enum AdapterParent: Equatable {
        case usb(String)
        case otherBus
        case virtual
        case unreadable(String)
    }

    func parent(of adapter: String) -> AdapterParent {
        let entry = "/sys/class/bluetooth/\(adapter)"
        guard root.exists(entry) else { return .unreadable(entry) }
        guard let interface = root.resolved(entry + "/device") else { return .virtual }
        // The adapter's `device` is its USB interface (1-4:1.0); the USB device is the directory above.
        let device = String(
            interface.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        return root.exists(device + "/idVendor") ? .usb(device) : .otherBus
    }

    func autosuspendCheck(_ adapter: String) -> DoctorCheck {
        let device: String
        switch parent(of: adapter) {
        case .usb(let path):
            device = path
        case .otherBus:
            return DoctorCheck(
                .adapterAutosuspend, subject: adapter, .ok, found: "not a USB adapter: no USB autosuspend")
        case .virtual:
            return DoctorCheck(
                .adapterAutosuspend, subject: adapter, .ok,
                found: "a virtual adapter (no parent device): no USB autosuspend")
        case .unreadable(let entry):
            return DoctorCheck(
                .adapterAutosuspend, subject: adapter, .note,
                found: "could not read \(entry): USB autosuspend not checked")
        }
        let vendor = root.value(device + "/idVendor") ?? "????"
        let product = root.value(device + "/idProduct") ?? "????"
        let control = root.value(device + "/power/control") ?? "unknown"
        let module = root.value(Self.btusbAutosuspend).map { " btusb enable_autosuspend=\($0)," } ?? ""
        let found = "USB \(vendor):\(product),\(module) power/control=\(control)"
        guard control == "auto" else {
            return DoctorCheck(.adapterAutosuspend, subject: adapter, .ok, found: found)
        }
        let deviceName = String(device.split(separator: "/").last ?? "")
        let fix = HostFix(argument: "adapter-autosuspend-off=\(vendor):\(product)@\(deviceName)")
        return DoctorCheck(
            .adapterAutosuspend, subject: adapter, .warn, found: found,
            why: "the adapter may sleep while the keyboard is idle, and the first key pressed after a pause is lost "
                + "waking it (zmk#2668, bluez#737)",
            fix: "kblink doctor --fix (a udev rule keeping this adapter's power/control on; only this adapter)",
            automaticFix: fix)
    }
}
