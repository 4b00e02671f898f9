/// The bus an input device is on (`I: Bus=` in `/proc/bus/input/devices`; the kernel's `BUS_*` numbers).
package struct InputBus: Hashable, Sendable, CustomStringConvertible {
    /// The kernel's bus number.
    package let rawValue: UInt16

    /// Wraps a bus number.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001 `BUS_PCI`.
    package static let pci = InputBus(rawValue: 0x0001)
    /// 0x0003 `BUS_USB`: USB keyboards (and some laptops' internal ones).
    package static let usb = InputBus(rawValue: 0x0003)
    /// 0x0005 `BUS_BLUETOOTH`: classic (hidp) and LE (BlueZ's HOGP through uhid) keyboards.
    package static let bluetooth = InputBus(rawValue: 0x0005)
    /// 0x0006 `BUS_VIRTUAL`.
    package static let virtual = InputBus(rawValue: 0x0006)
    /// 0x0011 `BUS_I8042`: a laptop's built-in keyboard behind the PS/2 controller.
    package static let i8042 = InputBus(rawValue: 0x0011)
    /// 0x0018 `BUS_I2C`: I2C HID devices (touchpads, some built-in keyboards).
    package static let i2c = InputBus(rawValue: 0x0018)
    /// 0x0019 `BUS_HOST`: platform devices (power button, lid switch).
    package static let host = InputBus(rawValue: 0x0019)

    /// `usb`, `bluetooth`, `i8042`... or `0x001c`.
    package var description: String {
        switch self {
        case .pci: "pci"
        case .usb: "usb"
        case .bluetooth: "bluetooth"
        case .virtual: "virtual"
        case .i8042: "i8042"
        case .i2c: "i2c"
        case .host: "host"
        default: rawValue.hexID
        }
    }
}
