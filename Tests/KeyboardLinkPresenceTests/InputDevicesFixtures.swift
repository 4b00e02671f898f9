@testable import KeyboardLinkPresence

/// Realistic `/proc/bus/input/devices` blocks, as a 64-bit kernel prints them (note the space after the last
/// handler, and the blank line after each block).
enum InputDevicesFixtures {
    /// Pieces of the longer lines, kept apart only to fit the source's line length.
    private static let hci0 = "/devices/pci0000:00/0000:00:14.0/usb1/1-10/1-10:1.0/bluetooth/hci0"
    private static let bluetoothKeyboardKeys =
        "3f000303ff 0 0 483ffff17aff32d bfd4444600000000 ffff0001 130ff38b17d000 677bfad9415fed "
        + "febeffdfffefffff fffffffffffffffe"
    private static let allKeys =
        Array(repeating: "ffffffffffffffff", count: 11).joined(separator: " ") + " fffffffffffffffe"

    /// A laptop: power button, lid switch, built-in i8042 keyboard, ACPI video bus hotkeys.
    static let laptop = """
        I: Bus=0019 Vendor=0000 Product=0001 Version=0000
        N: Name="Power Button"
        P: Phys=PNP0C0C/button/input0
        S: Sysfs=/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0C:00/input/input0
        U: Uniq=
        H: Handlers=kbd event0\u{20}
        B: PROP=0
        B: EV=3
        B: KEY=10000000000000 0

        I: Bus=0019 Vendor=0000 Product=0005 Version=0000
        N: Name="Lid Switch"
        P: Phys=PNP0C0D/button/input0
        S: Sysfs=/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0D:00/input/input1
        U: Uniq=
        H: Handlers=event1\u{20}
        B: PROP=0
        B: EV=21
        B: SW=1

        I: Bus=0011 Vendor=0001 Product=0001 Version=ab83
        N: Name="AT Translated Set 2 keyboard"
        P: Phys=isa0060/serio0/input0
        S: Sysfs=/devices/platform/i8042/serio0/input/input3
        U: Uniq=
        H: Handlers=sysrq kbd leds event3\u{20}
        B: PROP=0
        B: EV=120013
        B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe
        B: MSC=10
        B: LED=7

        I: Bus=0019 Vendor=0000 Product=0006 Version=0000
        N: Name="Video Bus"
        P: Phys=LNXVIDEO/video/input0
        S: Sysfs=/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0A08:00/LNXVIDEO:00/input/input4
        U: Uniq=
        H: Handlers=kbd event4\u{20}
        B: PROP=0
        B: EV=3
        B: KEY=3e000b00000000 0 0 0

        """

    /// A USB keyboard: its keyboard interface and its consumer-control interface (media keys, not a keyboard).
    static let usbKeyboard = """
        I: Bus=0003 Vendor=046d Product=c31c Version=0110
        N: Name="Logitech USB Keyboard"
        P: Phys=usb-0000:00:14.0-2/input0
        S: Sysfs=/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:046D:C31C.0001/input/input5
        U: Uniq=
        H: Handlers=sysrq kbd leds event5\u{20}
        B: PROP=0
        B: EV=120013
        B: KEY=1000000000007 ff800000000007ff febeffdfffefffff fffffffffffffffe
        B: MSC=10
        B: LED=1f

        I: Bus=0003 Vendor=046d Product=c31c Version=0110
        N: Name="Logitech USB Keyboard Consumer Control"
        P: Phys=usb-0000:00:14.0-2/input1
        S: Sysfs=/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.1/0003:046D:C31C.0002/input/input6
        U: Uniq=
        H: Handlers=kbd event6\u{20}
        B: PROP=0
        B: EV=1f
        B: KEY=3007f 0 0 483ffff17aff32d bfd4444600000000 1 130c130b17c000 267bfad9415fed 9e168000004400 10000002
        B: REL=1040
        B: ABS=100000000
        B: MSC=10

        """

    /// A classic Bluetooth keyboard (kernel hidp: under the adapter in sysfs, Uniq in lowercase).
    static let bluetoothClassicKeyboard = """
        I: Bus=0005 Vendor=046d Product=b342 Version=1504
        N: Name="Logitech K480"
        P: Phys=9c:b6:d0:12:34:56
        S: Sysfs=\(hci0)/hci0:256/0005:046D:B342.0003/input/input20
        U: Uniq=c8:7f:54:0a:1b:2c
        H: Handlers=sysrq kbd leds event20\u{20}
        B: PROP=0
        B: EV=12001f
        B: KEY=\(bluetoothKeyboardKeys)
        B: REL=1040
        B: ABS=100000000
        B: MSC=10
        B: LED=1f

        """

    /// A Bluetooth LE keyboard (BlueZ's HID over GATT through uhid: under /devices/virtual/misc/uhid/, Uniq in
    /// uppercase as BlueZ writes it).
    static let bluetoothLEKeyboard = """
        I: Bus=0005 Vendor=05d6 Product=0f87 Version=0104
        N: Name="Aula F87"
        P: Phys=9c:b6:d0:12:34:56
        S: Sysfs=/devices/virtual/misc/uhid/0005:05D6:0F87.0004/input/input21
        U: Uniq=F4:12:FA:6B:33:9D
        H: Handlers=sysrq kbd leds event21\u{20}
        B: PROP=0
        B: EV=12001f
        B: KEY=\(bluetoothKeyboardKeys)
        B: REL=1040
        B: ABS=100000000
        B: MSC=10
        B: LED=1f

        """

    /// keyd's uinput keyboard: claims every key, lives under /devices/virtual/input/.
    static let keydVirtualKeyboard = """
        I: Bus=0003 Vendor=0fac Product=0ade Version=0001
        N: Name="keyd virtual keyboard"
        P: Phys=
        S: Sysfs=/devices/virtual/input/input30
        U: Uniq=
        H: Handlers=sysrq kbd leds event30\u{20}
        B: PROP=0
        B: EV=120013
        B: KEY=\(allKeys)
        B: MSC=10
        B: LED=7

        """

    /// A USB mouse: buttons (BTN_LEFT = 272, in word 4) but no keyboard keys.
    static let mouse = """
        I: Bus=0003 Vendor=046d Product=c077 Version=0111
        N: Name="Logitech USB Optical Mouse"
        P: Phys=usb-0000:00:14.0-1/input0
        S: Sysfs=/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/0003:046D:C077.0003/input/input7
        U: Uniq=
        H: Handlers=mouse0 event7\u{20}
        B: PROP=0
        B: EV=17
        B: KEY=ff0000 0 0 0 0
        B: REL=903
        B: MSC=10

        """

    /// The devices file made of `parts`, in order (each part ends its last line; a blank line follows it).
    static func file(_ parts: [String]) -> String { parts.map { $0 + "\n" }.joined() }

    /// The devices file made of `parts`, in order.
    static func file(_ parts: String...) -> String { file(parts) }

    /// Parses the devices file made of `parts`.
    static func devices(_ parts: String...) throws -> [InputDevice] {
        try InputDevicesFile.parse(file(parts))
    }
}
