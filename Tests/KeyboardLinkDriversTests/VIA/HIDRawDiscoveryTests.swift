import FoundationEssentials
import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkDrivers

/// A fake `/sys/class/hidraw` under a temporary directory, and beside it a fake `/dev` whose entries are symbolic
/// links to real files (`/dev/null` stands in for a hidraw node: a character device anyone may open for writing).
final class FakeHIDRawSysfs {
    let root: String
    let devices: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/kblink-hidraw-\(UInt64.random(in: 0 ... .max))"
        root = base + "/sys"
        devices = base + "/dev"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: String(root.dropLast(4)))
    }

    /// A discovery over this tree.
    var discovery: HIDRawDiscovery { HIDRawDiscovery(sysfsRoot: root, deviceDirectory: devices) }

    /// Adds `/sys/class/hidraw/<name>` with its `device/uevent`, `device/report_descriptor` and `dev` files
    /// (each only when given).
    func add(_ name: String, uevent: String?, descriptor: [UInt8]?, dev: String? = nil) throws {
        let entry = root + "/" + name
        let device = entry + "/device"
        try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
        if let uevent {
            #expect(FileManager.default.createFile(atPath: device + "/uevent", contents: Data(uevent.utf8)))
        }
        if let descriptor {
            #expect(
                FileManager.default.createFile(atPath: device + "/report_descriptor", contents: Data(descriptor)))
        }
        if let dev {
            #expect(FileManager.default.createFile(atPath: entry + "/dev", contents: Data(dev.utf8)))
        }
    }

    /// Makes `<devices>/<name>` a symbolic link to `target`.
    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: devices + "/" + name, withDestinationPath: target)
    }
}

@Suite("hidraw discovery in sysfs")
struct HIDRawDiscoveryTests {
    private func uevent(id: String, name: String, uniq: String) -> String {
        "DRIVER=hid-generic\nHID_ID=\(id)\nHID_NAME=\(name)\nHID_PHYS=00:11:22:33:44:55\nHID_UNIQ=\(uniq)\n"
            + "MODALIAS=hid:b0005g0001v0000320Fp00005088\n"
    }

    private func makeTree() throws -> FakeHIDRawSysfs {
        let sysfs = try FakeHIDRawSysfs()
        let bluetooth = "0005:0000320F:00005088"
        try sysfs.add(
            "hidraw0", uevent: uevent(id: "0003:0000046D:0000C52B", name: "Logitech Receiver", uniq: ""),
            descriptor: HIDReportDescriptorTests.keyboard)
        try sysfs.add(
            "hidraw1", uevent: uevent(id: bluetooth, name: "VGN 98Pro", uniq: "aa:bb:cc:dd:ee:ff"),
            descriptor: HIDReportDescriptorTests.qmkRawHID, dev: "247:1\n")
        try sysfs.add(
            "hidraw2", uevent: uevent(id: bluetooth, name: "VGN 98Pro", uniq: "aa:bb:cc:dd:ee:ff"),
            descriptor: HIDReportDescriptorTests.keyboard)
        try sysfs.add(
            "hidraw10", uevent: uevent(id: "0003:00003434:00000361", name: "Keychron", uniq: ""),
            descriptor: HIDReportDescriptorTests.keyboard + HIDReportDescriptorTests.qmkRawHID)
        try sysfs.add("hidraw3", uevent: nil, descriptor: HIDReportDescriptorTests.qmkRawHID)
        try sysfs.add(
            "hidraw4", uevent: uevent(id: "0003:00003434:00000362", name: "Broken", uniq: ""), descriptor: [0x06, 0x60])
        try sysfs.add(
            "not-hidraw", uevent: uevent(id: bluetooth, name: "x", uniq: "aa:bb:cc:dd:ee:ff"), descriptor: nil)
        return sysfs
    }

    @Test("Every node with a HID uevent is listed, in numeric order, with its parsed fields")
    func allNodes() throws {
        let sysfs = try makeTree()
        let nodes = try HIDRawDiscovery(sysfsRoot: sysfs.root, deviceDirectory: "/dev").allNodes()
        #expect(nodes.map(\.name) == ["hidraw0", "hidraw1", "hidraw2", "hidraw4", "hidraw10"])
        let vgn = nodes[1]
        #expect(vgn.devicePath == "/dev/hidraw1")
        #expect(vgn.physicalPath == "00:11:22:33:44:55")
        #expect(vgn.deviceNumber == .init(major: 247, minor: 1))
        #expect(nodes[0].deviceNumber == nil)
        #expect(vgn.busType == 0x0005)
        #expect(vgn.vendorID == 0x320F)
        #expect(vgn.productID == 0x5088)
        #expect(vgn.hidName == "VGN 98Pro")
        #expect(vgn.uniqueID == "aa:bb:cc:dd:ee:ff")
        #expect(vgn.isVIAInterface)
        #expect(!nodes[2].isVIAInterface)
        #expect(nodes[3].descriptorProblem != nil)
        #expect(!nodes[3].isVIAInterface)
    }

    @Test("A Bluetooth keyboard's VIA node is found by its address, adapter and IDs, in any case")
    func byAddress() throws {
        let sysfs = try makeTree()
        let discovery = HIDRawDiscovery(sysfsRoot: sysfs.root)
        let address = try BluetoothAddress("AA:BB:CC:DD:EE:FF")
        let adapter = try BluetoothAddress("00:11:22:33:44:55")
        let ids = BluetoothHIDKeyboard.ProductIDs(vendor: 0x320F, product: 0x5088)
        let keyboard = BluetoothHIDKeyboard(address: address, adapter: adapter, productIDs: ids)
        #expect(try discovery.viaNodes(matching: .bluetooth(keyboard)).map(\.name) == ["hidraw1"])
        #expect(try discovery.viaNode(of: keyboard)?.name == "hidraw1")
        var unknownIDs = keyboard
        unknownIDs.productIDs = nil
        #expect(try discovery.viaNode(of: unknownIDs)?.name == "hidraw1")
        var other = keyboard
        other.address = try BluetoothAddress("aa:bb:cc:dd:ee:00")
        #expect(try discovery.viaNode(of: other) == nil)
        var noAdapter = keyboard
        noAdapter.adapter = nil
        #expect(try discovery.viaNode(of: noAdapter) == nil)
    }

    @Test("A keyboard's VIA node is found by vendor and product, optionally on one bus")
    func byIDs() throws {
        let sysfs = try makeTree()
        let discovery = HIDRawDiscovery(sysfsRoot: sysfs.root)
        #expect(
            try discovery.viaNodes(matching: .deviceIDs(vendor: 0x3434, product: 0x0361, bus: nil)).map(\.name) == [
                "hidraw10"
            ])
        #expect(try discovery.viaNodes(matching: .deviceIDs(vendor: 0x3434, product: 0x0361, bus: 0x0003)).count == 1)
        #expect(try discovery.viaNodes(matching: .deviceIDs(vendor: 0x3434, product: 0x0361, bus: 0x0005)).isEmpty)
        #expect(
            try discovery.viaNodes(matching: .deviceIDs(vendor: 0x320F, product: 0x5088, bus: 0x0005)).map(\.name) == [
                "hidraw1"
            ])
    }

    @Test("No hidraw class directory means no nodes")
    func missingRoot() throws {
        #expect(try HIDRawDiscovery(sysfsRoot: "/nonexistent/kblink/hidraw").allNodes().isEmpty)
    }

    @Test("uevent and HID_ID parsing")
    func parsing() {
        let fields = HIDRawNode.parseUevent("A=1\nHID_UNIQ=\nHID_NAME=Name=With=Equals\nnoequals\n")
        #expect(fields == ["A": "1", "HID_UNIQ": "", "HID_NAME": "Name=With=Equals"])
        let id = HIDRawNode.parseHIDID("0005:0000320F:00005088")
        #expect(id?.bus == 5)
        #expect(id?.vendor == 0x320F)
        #expect(id?.product == 0x5088)
        #expect(HIDRawNode.parseHIDID("0005:320F") == nil)
        #expect(HIDRawNode.parseHIDID("zz:0:0") == nil)
    }

    @Test("Only hidraw followed by digits is a node name: nothing else becomes a path under /dev")
    func nodeNames() {
        #expect(HIDRawNode.isNodeName("hidraw0"))
        #expect(HIDRawNode.isNodeName("hidraw123"))
        #expect(!HIDRawNode.isNodeName("hidraw"))
        #expect(!HIDRawNode.isNodeName("hidrawx"))
        #expect(!HIDRawNode.isNodeName("hidraw1/../../tty0"))
        #expect(!HIDRawNode.isNodeName("hidraw1 "))
        #expect(!HIDRawNode.isNodeName("hidraw١"))
        #expect(!HIDRawNode.isNodeName("hidraw1234567890"))
    }

    @Test("A sysfs dev file is major:minor in decimal; dev_t splits as glibc's major() and minor()")
    func deviceNumbers() {
        #expect(HIDRawNode.DeviceNumber(sysfsText: "247:3\n") == .init(major: 247, minor: 3))
        #expect(HIDRawNode.DeviceNumber(sysfsText: "0:0") == .init(major: 0, minor: 0))
        for bad in [
            "", "\n", "247", "247:", ":3", "247:3:1", "+247:3", "247:-3", "a:b", "247 :3", "247:3\n\n",
            "99999999999:1", "２:3",
        ] {
            #expect(HIDRawNode.DeviceNumber(sysfsText: bad) == nil, "\(bad.debugDescription)")
        }
        // makedev(247, 3) and makedev(0x1234, 0x12345) in glibc's encoding.
        #expect(HIDRawNode.DeviceNumber(deviceID: 0xF703) == .init(major: 247, minor: 3))
        let wide: UInt64 = 0x45 | (0x234 << 8) | (0x12300 << 12) | (0x1000 << 32)
        #expect(HIDRawNode.DeviceNumber(deviceID: wide) == .init(major: 0x1234, minor: 0x12345))
    }
}
