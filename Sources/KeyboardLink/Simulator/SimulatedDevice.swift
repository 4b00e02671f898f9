import KeyboardLinkBlueZ

/// A device the simulated BlueZ knows or can discover.
package struct SimulatedDevice: Sendable, Equatable {
    /// How the simulated device answers `Pair()` (the pairing issue builds on this).
    package enum PairingBehavior: Sendable, Equatable {
        /// A BLE keyboard: BlueZ shows a passkey, the keyboard "types" it digit by digit.
        case typesPasskey(UInt32)
        /// A legacy keyboard that asks the agent for a PIN code.
        case requestsPinCode
        /// A keyboard with a display: BlueZ asks the agent to confirm the number both show (numeric comparison).
        case comparesPasskey(UInt32)
        /// Pairing without a code that BlueZ asks the agent to authorize (`RequestAuthorization`).
        case asksAuthorization
        /// Just works (no agent call).
        case justWorks
        /// Authentication fails.
        case failsAuthentication
        /// Never answers; BlueZ times out.
        case neverAnswers
    }

    /// When the kernel makes a connected keyboard's input device (``SimulatedInputDevices``).
    package enum InputDeviceBehavior: Sendable, Equatable {
        /// When the link comes up, as on a healthy stack.
        case atConnection
        /// This long after the link came up.
        case late(Duration)
        /// Only after `Device1.ConnectProfile` with its HID UUID (classic HID: the kernel's HIDP failed at
        /// connection, and connecting the profile again fixes it). An LE-only keyboard's `ConnectProfile` fails, as
        /// bluetoothd's does, so on one this means never.
        case afterConnectProfile
        /// Only on a connection that follows a `Device1.Disconnect`.
        case afterReconnect
        /// Never: no input device whatever is tried.
        case never
    }

    package var address: BluetoothAddress
    package var name: String
    package var addressType: String = "public"
    package var classOfDevice: UInt32?
    package var appearance: UInt16?
    package var icon: String?
    package var uuids: [String] = []
    package var modalias: String?
    package var paired = false
    package var trusted = false
    package var connected = false
    package var battery: UInt8?
    package var rssi: Int16? = -55
    /// Only appears while the adapter discovers.
    package var discoverableOnly = false
    /// Keeps advertising while disconnected (awake and in range): BlueZ connects a paired LE keyboard that does
    /// so again by itself, unless auto-connection was turned off (SimulatedBlueZ+AutoConnect.swift).
    package var advertisesWhileDisconnected = false
    package var pairing: PairingBehavior = .justWorks
    /// The GATT database served while connected (nil: no GATT objects, as for a classic-only device).
    package var gatt: SimulatedGATTProfile?
    /// When its input device appears, for a keyboard (`Icon` `input-keyboard`) while the simulator has
    /// ``SimulatedInputDevices``.
    package var inputDevice: InputDeviceBehavior = .atConnection
    /// Whether that input device passes systemd's keyboard rule (keys 1 to 31); false for a numeric keypad's, which
    /// has no letter keys.
    package var inputDeviceIsKeyboard = true

    package init(address: BluetoothAddress, name: String) {
        self.address = address
        self.name = name
    }
}

extension SimulatedDevice {
    /// Whether the device has a BR/EDR (classic) side: a class of device or the classic HID service. One without
    /// is LE-only, whose `Device1.ConnectProfile` fails as bluetoothd's does.
    package var hasBREDR: Bool { classOfDevice != nil || uuids.contains(Self.hid) }

    static let hid = "00001124-0000-1000-8000-00805f9b34fb"
    static let hogp = "00001812-0000-1000-8000-00805f9b34fb"
    static let deviceInformation = "0000180a-0000-1000-8000-00805f9b34fb"
    static let batteryService = "0000180f-0000-1000-8000-00805f9b34fb"

    private static func address(_ text: String) -> BluetoothAddress {
        guard let address = BluetoothAddress(validating: text) else { preconditionFailure("bad literal \(text)") }
        return address
    }

    /// An Aula F87: an 87-key TKL over BLE (HOGP), paired and connected.
    package static var aulaF87: SimulatedDevice {
        var device = SimulatedDevice(address: address("F8:70:00:00:00:87"), name: "Aula F87")
        device.addressType = "random"
        device.appearance = 0x03C1
        device.icon = "input-keyboard"
        device.uuids = [hogp, deviceInformation, batteryService]
        device.modalias = "usb:v258Ap010Cd0102"
        device.paired = true
        device.trusted = true
        device.connected = true
        device.battery = 85
        device.pairing = .typesPasskey(123_456)
        device.gatt = .aulaF87
        return device
    }

    /// A VGN 98Pro: 98 keys with a number pad, classic HID, paired but asleep.
    package static var vgn98Pro: SimulatedDevice {
        var device = SimulatedDevice(address: address("98:00:00:00:98:01"), name: "VGN 98Pro")
        device.classOfDevice = 0x002540
        device.icon = "input-keyboard"
        device.uuids = [hid]
        device.modalias = "bluetooth:v05ACp0256d0001"
        device.paired = true
        device.trusted = true
        device.battery = 60
        device.pairing = .requestsPinCode
        device.gatt = .vgn98Pro
        return device
    }

    /// A Corne split keyboard running ZMK: BLE (HOGP), paired and connected, one battery per half ("Left",
    /// "Right"), slow GATT reads. BlueZ's `Battery1` shows the first half only, as on real hardware.
    package static var corneSplit: SimulatedDevice {
        var device = SimulatedDevice(address: address("EC:0C:4E:00:00:42"), name: "Corne Split")
        device.addressType = "random"
        device.appearance = 0x03C1
        device.icon = "input-keyboard"
        device.uuids = [hogp, deviceInformation, batteryService]
        device.modalias = "usb:v1D50p615Ed0300"
        device.paired = true
        device.trusted = true
        device.connected = true
        device.battery = 90
        device.gatt = .corneSplit
        return device
    }

    /// A phone: paired and connected, never a keyboard.
    package static var phone: SimulatedDevice {
        var device = SimulatedDevice(address: address("5A:02:0C:00:00:01"), name: "Pixel 7")
        device.classOfDevice = 0x5A020C
        device.icon = "phone"
        device.paired = true
        device.connected = true
        return device
    }

    /// A mouse: paired and connected, never a keyboard.
    package static var mouse: SimulatedDevice {
        var device = SimulatedDevice(address: address("C2:00:00:00:03:C2"), name: "MX Master 3")
        device.addressType = "random"
        device.appearance = 0x03C2
        device.icon = "input-mouse"
        device.uuids = [hogp]
        device.paired = true
        device.connected = true
        device.battery = 40
        return device
    }

    /// A keyboard found only by a scan, in pairing mode.
    package static var keychronK3: SimulatedDevice {
        var device = SimulatedDevice(address: address("DC:2C:26:00:00:03"), name: "Keychron K3 Pro")
        device.addressType = "random"
        device.appearance = 0x03C1
        device.icon = "input-keyboard"
        device.uuids = [hogp]
        device.discoverableOnly = true
        device.pairing = .typesPasskey(4_821)
        return device
    }

    /// A headset found by a scan: not a keyboard.
    package static var headset: SimulatedDevice {
        var device = SimulatedDevice(address: address("24:04:04:00:00:01"), name: "QC35 Headset")
        device.classOfDevice = 0x240404
        device.icon = "audio-headset"
        device.discoverableOnly = true
        return device
    }
}
