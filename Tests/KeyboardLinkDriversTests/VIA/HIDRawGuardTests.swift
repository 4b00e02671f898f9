import FoundationEssentials
import Glibc
import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkDrivers

/// Issue 27 item 6: a hidraw node is written to only when it is the Bluetooth keyboard's, and the one opened is
/// the one discovered. `/dev/null` stands in for a node: a character device anyone can open for writing, so a
/// node wrongly accepted opens, and the test sees a link where there must be none.
@Suite("hidraw nodes belong to the keyboard")
struct HIDRawGuardTests {
    static let address = "C8:7F:54:0A:1B:2C"
    static let adapter = "00:1A:7D:DA:71:13"
    static let keyboard = BluetoothHIDKeyboard(
        address: BluetoothAddress(validating: address)!, adapter: BluetoothAddress(validating: adapter)!,
        productIDs: .init(vendor: 0x320F, product: 0x5088))

    /// `/dev/null`'s device number, as `dev` in sysfs writes it.
    static func nullDevice() throws -> String {
        var status = stat()
        try #require(stat("/dev/null", &status) == 0)
        let number = HIDRawNode.DeviceNumber(deviceID: UInt64(status.st_rdev))
        return "\(number.major):\(number.minor)\n"
    }

    /// A uevent as the kernel writes it for a hidraw node's HID device (lowercase addresses, as `%pMR` prints).
    static func uevent(
        bus: String = "0005", vendor: String = "0000320F", product: String = "00005088",
        phys: String = adapter.lowercased(), uniq: String = address.lowercased()
    ) -> String {
        "DRIVER=hid-generic\nHID_ID=\(bus):\(vendor):\(product)\nHID_NAME=VGN 98Pro\nHID_PHYS=\(phys)\n"
            + "HID_UNIQ=\(uniq)\nMODALIAS=hid:b\(bus)g0001v\(vendor)p\(product)\n"
    }

    /// Adds a VIA node whose `/dev` entry is `/dev/null` with `/dev/null`'s device number in sysfs.
    static func addNode(_ sysfs: FakeHIDRawSysfs, _ name: String, uevent: String) throws {
        try sysfs.add(name, uevent: uevent, descriptor: HIDReportDescriptorTests.qmkRawHID, dev: try nullDevice())
        try sysfs.link(name, to: "/dev/null")
    }

    /// Opens the keyboard's link over `sysfs` as kblinkd does, closing any link it gets.
    static func open(_ sysfs: FakeHIDRawSysfs, _ keyboard: BluetoothHIDKeyboard = keyboard) throws -> Bool {
        guard let link = try VIADriverLinks.hidraw(sysfs.discovery).open(keyboard) else { return false }
        link.close()
        return true
    }

    @Test("The keyboard's own node (bus 0005, its address, its adapter, its IDs) opens, in any address case")
    func ownNodeOpens() throws {
        for (uniq, phys) in [(Self.address.lowercased(), Self.adapter.lowercased()), (Self.address, Self.adapter)] {
            let sysfs = try FakeHIDRawSysfs()
            try Self.addNode(sysfs, "hidraw3", uevent: Self.uevent(phys: phys, uniq: uniq))
            #expect(try Self.open(sysfs))
        }
    }

    /// Nodes that carry the keyboard's `HID_UNIQ` but are another device's.
    static let impostors: [(String, String)] = [
        ("USB bus", uevent(bus: "0003")),
        ("USB bus, USB phys", uevent(bus: "0003", phys: "usb-0000:00:14.0-2/input1")),
        ("virtual bus", uevent(bus: "0006")),
        ("other vendor", uevent(vendor: "00003434")),
        ("other product", uevent(product: "00005089")),
        ("other adapter", uevent(phys: "00:1a:7d:da:71:14")),
        ("phys not an address", uevent(phys: "\(adapter.lowercased())/input0")),
        ("empty phys", uevent(phys: "")),
        ("uniq with a suffix", uevent(uniq: address.lowercased() + " ")),
    ]

    @Test(
        "A hidraw node with the keyboard's HID_UNIQ but USB bus or other IDs is never written to",
        arguments: impostors)
    func impostorNeverOpened(_ kind: String, _ uevent: String) throws {
        let sysfs = try FakeHIDRawSysfs()
        try Self.addNode(sysfs, "hidraw5", uevent: uevent)
        #expect(try !Self.open(sysfs), "\(kind)")
        // Beside the keyboard's own node it is not counted either: the keyboard's node is chosen, not refused.
        try Self.addNode(sysfs, "hidraw6", uevent: Self.uevent())
        #expect(try sysfs.discovery.viaNode(of: Self.keyboard)?.name == "hidraw6", "\(kind)")
        #expect(try Self.open(sysfs), "\(kind)")
    }

    @Test("Without the adapter's address no node counts; without known IDs, bus, address and adapter still must")
    func unknowns() throws {
        let sysfs = try FakeHIDRawSysfs()
        try Self.addNode(sysfs, "hidraw2", uevent: Self.uevent())
        var noAdapter = Self.keyboard
        noAdapter.adapter = nil
        #expect(try !Self.open(sysfs, noAdapter))
        var noIDs = Self.keyboard
        noIDs.productIDs = nil
        #expect(try Self.open(sysfs, noIDs))
        let usb = try FakeHIDRawSysfs()
        try Self.addNode(usb, "hidraw2", uevent: Self.uevent(bus: "0003"))
        #expect(try !Self.open(usb, noIDs))
    }

    @Test("Two nodes that both match are refused, naming both, rather than one guessed")
    func twoMatchesRefused() throws {
        let sysfs = try FakeHIDRawSysfs()
        try Self.addNode(sysfs, "hidraw1", uevent: Self.uevent())
        try Self.addNode(sysfs, "hidraw7", uevent: Self.uevent())
        #expect(throws: HIDRawRefusal.ambiguous(keyboard: Self.keyboard, nodes: ["hidraw1", "hidraw7"])) {
            try Self.open(sysfs)
        }
        let error = HIDRawRefusal.ambiguous(keyboard: Self.keyboard, nodes: ["hidraw1", "hidraw7"])
        #expect(error.description.contains("hidraw1, hidraw7"))
        #expect(error.description.contains(Self.address))
    }

    @Test("A node that opens as another device than sysfs names is closed and refused")
    func substitutedNodeRefused() throws {
        // sysfs names another character device than the one at the path.
        let other = try FakeHIDRawSysfs()
        try other.add("hidraw4", uevent: Self.uevent(), descriptor: HIDReportDescriptorTests.qmkRawHID, dev: "247:4\n")
        try other.link("hidraw4", to: "/dev/null")
        let found = try Self.nullDevice().dropLast()
        #expect(
            throws: HIDRawRefusal.substituted(
                path: other.devices + "/hidraw4", expected: .init(major: 247, minor: 4),
                found: "character device \(found)")
        ) { try Self.open(other) }

        // A regular file where the node should be, even with a device number of 0:0 in sysfs.
        let file = try FakeHIDRawSysfs()
        try file.add("hidraw4", uevent: Self.uevent(), descriptor: HIDReportDescriptorTests.qmkRawHID, dev: "0:0\n")
        #expect(FileManager.default.createFile(atPath: file.devices + "/hidraw4", contents: Data()))
        #expect(
            throws: HIDRawRefusal.substituted(
                path: file.devices + "/hidraw4", expected: .init(major: 0, minor: 0), found: "not a character device")
        ) { try Self.open(file) }
        let size = try FileManager.default.attributesOfItem(atPath: file.devices + "/hidraw4")[.size] as? Int
        #expect(size == 0)

        // No dev file: nothing to check against, so it is not opened.
        let unchecked = try FakeHIDRawSysfs()
        try unchecked.add("hidraw4", uevent: Self.uevent(), descriptor: HIDReportDescriptorTests.qmkRawHID)
        try unchecked.link("hidraw4", to: "/dev/null")
        #expect(throws: HIDRawRefusal.unverifiable(path: unchecked.devices + "/hidraw4")) { try Self.open(unchecked) }
    }
}
