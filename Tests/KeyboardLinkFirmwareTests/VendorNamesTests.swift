import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkFirmware

@Suite struct VendorNamesTests {
    /// The shape of hwdata's usb.ids: comments, vendors, tab-indented devices and interfaces, then the classes.
    static let usbIDs = """
        #
        #\tList of USB ID's
        #
        # Version: 2025.07.26
        #
        # Syntax:
        # vendor  vendor_name
        #\tdevice  device_name\t\t\t\t<-- single tab
        #\t\tinterface  interface_name\t\t<-- two tabs

        0001  Fry's Electronics
        \t7778  Counterfeit flash drive [Kingston]
        046d  Logitech, Inc.
        \tc31c  Keyboard K120
        \tc52b  Unifying Receiver
        \t\t00  Keyboard interface
        05ac  Apple, Inc.
        \t0256  Magic Keyboard
        1d50  OpenMoko, Inc.
        3434  Keychron
        abcd  Dürer Tastaturen GmbH
        046d  A duplicate that must not win

        # List of known device classes, subclasses and protocols

        C 00  (Defined at Interface level)
        C 03  Human Interface Device
        \t01  Boot Interface Subclass
        ffff  Not a vendor: after the class section
        """

    @Test(arguments: [
        (UInt16(0x046D), "Logitech, Inc."),
        (0x05AC, "Apple, Inc."),
        (0x1D50, "OpenMoko, Inc."),
        (0x3434, "Keychron"),
        (0x0001, "Fry's Electronics"),
        (0xABCD, "Dürer Tastaturen GmbH"),
    ])
    func usbVendorsFromTheFile(id: UInt16, name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = USBVendorNames(path: try directory.write(Self.usbIDs, to: "usb.ids"))
        #expect(names.name(for: id) == name)
    }

    @Test func devicesClassesAndUnknownIDsAreNotVendors() {
        let table = USBVendorNames.parseVendors(Array(Self.usbIDs.utf8))
        #expect(table.count == 6)
        #expect(table[0x7778] == nil)
        #expect(table[0xC31C] == nil)
        #expect(table[0xFFFF] == nil)
        #expect(table[0x0003] == nil)
    }

    @Test func missingFileGivesNil() {
        let names = USBVendorNames(path: "/nonexistent/kblink/usb.ids")
        #expect(names.name(for: 0x046D) == nil)
    }

    @Test func answersAreKeptAndOtherVendorsReadLater() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("046d  Logitech, Inc.\n", to: "usb.ids")
        let names = USBVendorNames(path: path)
        #expect(names.name(for: 0x046D) == "Logitech, Inc.")
        #expect(names.name(for: 0x05AC) == nil)
        try directory.write("046d  Changed\n05ac  Apple, Inc.\n", to: "usb.ids")
        #expect(names.name(for: 0x046D) == "Logitech, Inc.")
        #expect(names.name(for: 0x05AC) == nil)
        #expect(names.name(for: 0x05AD) == nil)
        try directory.write("05ad  Late, Inc.\n", to: "usb.ids")
        #expect(names.name(for: 0x05AD) == nil)
        #expect(USBVendorNames(path: path).name(for: 0x05AD) == "Late, Inc.")
    }

    @Test(arguments: [(UInt16(0x046D), "Logitech, Inc."), (0x05AC, "Apple, Inc."), (0xFFFF, nil)])
    func lookUpMatchesTheTable(id: UInt16, name: String?) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.usbIDs, to: "usb.ids")
        #expect(USBVendorNames.lookUp(id, in: path) == name)
        #expect(USBVendorNames.parseVendors(Array(Self.usbIDs.utf8))[id] == name)
    }

    /// The file is read 64 KiB at a time: vendor lines that straddle a chunk boundary, a line longer than
    /// `longestLine` (skipped, and the line after it still read) and a last line without a newline all count.
    @Test(arguments: [65_530, 65_536, 65_540, 131_070])
    func linesAcrossChunkBoundaries(padding: Int) throws {
        // Comment lines of 100 bytes, then enough single bytes to put the next vendor line across `padding`.
        var text = String(repeating: "#" + String(repeating: "x", count: 98) + "\n", count: padding / 100)
        text += String(repeating: "\n", count: padding % 100)
        text += "046d  Logitech, Inc.\n"
        text += "#" + String(repeating: "y", count: USBVendorNames.longestLine + 10) + "\n"
        text += "05ac  Apple, Inc.\r\n"
        text += String(repeating: "#" + String(repeating: "z", count: 98) + "\n", count: 700)
        text += "3434  Keychron"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(text, to: "usb.ids")
        #expect(USBVendorNames.lookUp(0x046D, in: path) == "Logitech, Inc.")
        #expect(USBVendorNames.lookUp(0x05AC, in: path) == "Apple, Inc.")
        #expect(USBVendorNames.lookUp(0x3434, in: path) == "Keychron")
        #expect(USBVendorNames.lookUp(0x1D50, in: path) == nil)
        var lines = 0
        USBVendorNames.forEachLine(ofFileAt: path) { _ in
            lines += 1
            return true
        }
        // Every line but the overlong one.
        #expect(lines == text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count - 1)
    }

    @Test func anOverlongLineIsSkippedWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A line of 100,000 "0" bytes would read as vendor 0000 if any piece of it were taken for a line.
        let path = try directory.write(
            String(repeating: "0", count: 100_000) + "  Not a vendor\n1d50  OpenMoko\n", to: "usb.ids")
        #expect(USBVendorNames.lookUp(0x0000, in: path) == nil)
        #expect(USBVendorNames.lookUp(0x1D50, in: path) == "OpenMoko")
    }

    @Test func crlfLinesAndTabSeparators() {
        let table = USBVendorNames.parseVendors(Array("046d\tLogitech, Inc.\r\n05ac  Apple, Inc.\r\n".utf8))
        #expect(table[0x046D] == "Logitech, Inc.")
        #expect(table[0x05AC] == "Apple, Inc.")
    }

    @Test(arguments: [
        // What Debian 12's libbluetooth3 (BlueZ 5.66) prints for these Bluetooth SIG company identifiers.
        (UInt16(0x0000), "Ericsson Technology Licensing"),
        (0x0002, "Intel Corp."),
        (0x0006, "Microsoft"),
        (0x004C, "Apple, Inc."),
        (0x0059, "Nordic Semiconductor ASA"),
    ])
    func bluetoothCompanyNames(id: UInt16, name: String) {
        #expect(BluetoothCompanyNames.name(for: id) == name)
        #expect(VendorNames(usbIDsPath: "/nonexistent").name(source: .bluetooth, vendorID: id) == name)
    }

    @Test func unassignedAndInternalUseCompanyIDsAreUnknown() {
        #expect(BluetoothCompanyNames.name(for: 0x0A12) == nil)
        #expect(BluetoothCompanyNames.name(for: 0xFFFF) == nil)
    }

    @Test func sourcePicksTheTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = VendorNames(usbIDsPath: try directory.write(Self.usbIDs, to: "usb.ids"))
        // 0x004C is Apple for the Bluetooth SIG; the USB table does not list it.
        #expect(names.name(source: .bluetooth, vendorID: 0x004C) == "Apple, Inc.")
        #expect(names.name(source: .usb, vendorID: 0x004C) == nil)
        // 0x05AC is Apple for USB-IF, GoerTek Dynaudio for the Bluetooth SIG.
        #expect(names.name(source: .usb, vendorID: 0x05AC) == "Apple, Inc.")
        #expect(names.name(source: .bluetooth, vendorID: 0x05AC) == "GoerTek Dynaudio Co., Ltd.")
        let identity = DeviceIdentity(source: .usb, vendorID: 0x046D, productID: 0xC52B, productVersion: 0x1201)
        #expect(names.name(for: identity) == "Logitech, Inc.")
    }
}
