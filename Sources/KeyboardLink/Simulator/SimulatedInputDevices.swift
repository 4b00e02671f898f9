import Glibc
import KeyboardLinkBlueZ
import KeyboardLinkSupport
import Synchronization

/// The kernel's side of the simulated keyboards: the input devices BlueZ's `hog` plugin (uhid) or the kernel's
/// HIDP makes for a connected Bluetooth keyboard, as files kblinkd's evdev monitor reads. Under ``root``:
///
/// - `devices`: the `/proc/bus/input/devices` text, one block per node (`Bus=0005`, `Uniq=` the address, the
///   keyboard bitmaps systemd's rule wants);
/// - `input/eventN`: an empty file per node, created after the text lists it and removed after the text dropped
///   it (the order the kernel and udev keep), so that inotify wakes the monitor;
/// - `sys/`: each node's sysfs directory and its `class/input/inputN` link, which the monitor checks.
///
/// Give ``devicesPath``, ``directory`` and ``sysfsRoot`` to an `EvdevMonitor` (`kblinkd-demo` and the tests do).
/// When a node appears is the simulated device's ``SimulatedDevice/inputDevice``.
package final class SimulatedInputDevices: Sendable {
    /// The directory holding everything.
    package let root: String
    /// The devices list.
    package var devicesPath: String { root + "/devices" }
    /// The directory of the event nodes.
    package var directory: String { root + "/input" }
    /// The sysfs root.
    package var sysfsRoot: String { root + "/sys" }

    private struct Node: Sendable {
        var address: BluetoothAddress
        var name: String
        var number: Int
        var lowEnergy: Bool
        var keyboard: Bool
    }

    private struct State: Sendable {
        var nodes: [BluetoothAddress: Node] = [:]
        var nextNumber = 0
    }

    private let state = Mutex(State())

    /// Makes the directories under `root` (which may exist) with no node.
    /// - Throws: the file error when they cannot be made or written.
    package init(root: String) throws {
        self.root = root
        let files = FileStore()
        try files.makeDirectory(root + "/input")
        try files.makeDirectory(root + "/sys/class/input")
        try files.writeAtomically([], to: root + "/devices", mode: 0o644)
    }

    /// Input devices in a new directory under `$TMPDIR` (or `/tmp`); ``delete()`` removes it.
    /// - Throws: the error of `mkdtemp` or of the first file.
    package static func temporary() throws -> SimulatedInputDevices {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/kblink-input-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(operation: "creating the directory", path: base, errno: errno)
        }
        return try SimulatedInputDevices(root: String(cString: made))
    }

    /// Removes every node and the whole directory.
    package func delete() {
        removeAll()
        Self.deleteTree(root)
    }

    private static func deleteTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            for name in (try? FileStore().list(path)) ?? [] where name != "." && name != ".." {
                deleteTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The addresses that have a node now.
    package var addresses: Set<BluetoothAddress> { state.withLock { Set($0.nodes.keys) } }

    /// Whether `address` has a node.
    package func hasNode(_ address: BluetoothAddress) -> Bool { state.withLock { $0.nodes[address] != nil } }

    /// Adds the input node of `address` (nothing when it has one): a full keyboard's, or with `keyboard` false a
    /// numeric keypad's (no letter keys, so not a keyboard by systemd's rule).
    package func add(_ address: BluetoothAddress, name: String, lowEnergy: Bool, keyboard: Bool = true) {
        state.withLock { state in
            guard state.nodes[address] == nil else { return }
            let node = Node(
                address: address, name: name, number: state.nextNumber, lowEnergy: lowEnergy, keyboard: keyboard)
            state.nextNumber += 1
            state.nodes[address] = node
            writeSysfs(node)
            writeDevices(state)
            _ = try? FileStore().writeAtomically([], to: directory + "/event\(node.number)", mode: 0o644)
        }
    }

    /// Removes the node of `address` (nothing when it has none).
    package func remove(_ address: BluetoothAddress) {
        state.withLock { state in
            guard let node = state.nodes.removeValue(forKey: address) else { return }
            writeDevices(state)
            unlink(directory + "/event\(node.number)")
            unlink(sysfsRoot + "/class/input/input\(node.number)")
        }
    }

    /// Removes every node and the directory.
    package func removeAll() {
        for address in addresses { remove(address) }
    }

    private func sysfsPath(_ node: Node) -> String {
        let hid = "0005:0000:0000.\(String(node.number + 1, radix: 16))"
        return node.lowEnergy
            ? "/devices/virtual/misc/uhid/\(hid)/input/input\(node.number)"
            : "/devices/platform/simulated-bluetooth/hci0/hci0:\(node.number)/\(hid)/input/input\(node.number)"
    }

    private func writeSysfs(_ node: Node) {
        let path = sysfsPath(node)
        try? FileStore().makeDirectory(sysfsRoot + path)
        let link = sysfsRoot + "/class/input/input\(node.number)"
        unlink(link)
        symlink(sysfsRoot + path, link)
    }

    /// A full keyboard's `KEY` bitmap (keys 1 to 31 and the rest of a 104-key board).
    private static let keyboardKeys =
        "3f000307ff 0 0 483ffff17aff32d bfd4444600000000 1 130c730b17c000 267bfad9415fed 9e168000004400 10000002 0 "
        + "fffffffffffffffe"
    /// A numeric keypad's: KP* (55, 71 to 83, 96, 98) and Num Lock (69), no letters (word 0 is keys 0 to 63).
    private static let keypadKeys = "5000fffa0 80000000000000"

    private func writeDevices(_ state: State) {
        let text = state.nodes.values.sorted { $0.number < $1.number }.map { node in
            """
            I: Bus=0005 Vendor=0000 Product=0000 Version=0001
            N: Name="\(node.name.filter { $0 != "\"" && !$0.isNewline })"
            P: Phys=00:1a:7d:da:71:00
            S: Sysfs=\(sysfsPath(node))
            U: Uniq=\(node.address.description.lowercased())
            H: Handlers=sysrq kbd leds event\(node.number)
            B: PROP=0
            B: EV=12001f
            B: KEY=\(node.keyboard ? Self.keyboardKeys : Self.keypadKeys)

            """
        }.joined(separator: "\n")
        _ = try? FileStore().writeAtomically(Array(text.utf8), to: devicesPath, mode: 0o644)
    }
}
