import Glibc
import KeyboardLinkBlueZ

/// Finds hidraw nodes in sysfs: all of them, or the VIA raw HID interface of one keyboard.
///
/// Everything read here is the device's word, not a fact: `HID_NAME` and `HID_UNIQ` are whatever the device (or a
/// program creating a uhid device) put there. A node counts as a Bluetooth keyboard's only when bus, address,
/// adapter and IDs all agree (``HIDRawMatch/bluetooth(_:)``), and only when it is the one node that does.
package struct HIDRawDiscovery: Sendable {
    /// Why sysfs could not be read.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What failed, with the path and the system's reason.
        package var description: String
    }

    /// The class directory, `/sys/class/hidraw` on a real system (a temporary tree in tests).
    package var sysfsRoot: String
    /// Where the device nodes live, `/dev`.
    package var deviceDirectory: String

    /// Creates a discovery over `sysfsRoot`.
    package init(sysfsRoot: String = "/sys/class/hidraw", deviceDirectory: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.deviceDirectory = deviceDirectory
    }

    /// Every hidraw node whose uevent names a HID device, by entry name. An absent class directory (no hidraw
    /// support loaded) means no nodes; entries without a readable uevent, and entries not named `hidraw` then
    /// digits, are skipped.
    /// - Throws: Failure when the class directory exists but cannot be listed.
    package func allNodes() throws(Failure) -> [HIDRawNode] {
        let names: [String]
        do {
            names = try VIAPosix.listDirectory(sysfsRoot)
        } catch .systemCall(_, _, let code) where code == ENOENT {
            return []
        } catch {
            throw Failure(description: "cannot list \(sysfsRoot): \(error)")
        }
        return names.filter(HIDRawNode.isNodeName).compactMap(node(named:))
            .sorted { $0.name.count != $1.name.count ? $0.name.count < $1.name.count : $0.name < $1.name }
    }

    /// The VIA raw HID nodes (usage page 0xFF60, usage 0x61) of the keyboard that `match` describes.
    /// - Throws: Failure when the class directory cannot be listed.
    package func viaNodes(matching match: HIDRawMatch) throws(Failure) -> [HIDRawNode] {
        try allNodes().filter { match.matches($0) && $0.isVIAInterface }
    }

    /// The VIA raw HID node of a Bluetooth keyboard: the one node that ``HIDRawMatch/bluetooth(_:)`` accepts and
    /// that has VIA's interface; nil when there is none.
    /// - Throws: Failure when the class directory cannot be listed; ``HIDRawRefusal/ambiguous(keyboard:nodes:)``
    ///   when more than one node matches (kblinkd does not guess which one is the keyboard).
    package func viaNode(of keyboard: BluetoothHIDKeyboard) throws -> HIDRawNode? {
        let nodes = try viaNodes(matching: .bluetooth(keyboard))
        guard nodes.count <= 1 else { throw HIDRawRefusal.ambiguous(keyboard: keyboard, nodes: nodes.map(\.name)) }
        return nodes.first
    }

    private func node(named name: String) -> HIDRawNode? {
        let entry = sysfsRoot + "/" + name
        let device = entry + "/device"
        guard let ueventBytes = try? VIAPosix.readFile(device + "/uevent") else { return nil }
        let fields = HIDRawNode.parseUevent(String(decoding: ueventBytes, as: UTF8.self))
        guard let hidID = fields["HID_ID"].flatMap(HIDRawNode.parseHIDID) else { return nil }
        var collections: [HIDReportDescriptor.Usage?] = []
        var reportID: UInt8?
        var problem: String?
        do {
            let bytes = try VIAPosix.readFile(device + "/report_descriptor")
            let descriptor = try HIDReportDescriptor(bytes: bytes)
            collections = descriptor.applicationCollections
            reportID = descriptor.reportID(of: .viaRawHID)
        } catch {
            problem = "\(error)"
        }
        var node = HIDRawNode(
            name: name, devicePath: deviceDirectory + "/" + name, busType: hidID.bus, vendorID: hidID.vendor,
            productID: hidID.product, hidName: fields["HID_NAME"] ?? "", uniqueID: fields["HID_UNIQ"] ?? "",
            applicationCollections: collections, descriptorProblem: problem)
        node.physicalPath = fields["HID_PHYS"] ?? ""
        node.deviceNumber = (try? VIAPosix.readFile(entry + "/dev", limit: 64)).flatMap {
            HIDRawNode.DeviceNumber(sysfsText: String(decoding: $0, as: UTF8.self))
        }
        node.viaReportID = reportID ?? 0
        return node
    }
}
