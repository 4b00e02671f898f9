import KeyboardLink

/// Simulated keyboards, one per way a pairing can go.
enum PairingFixtures {
    static func address(_ text: String) -> BluetoothAddress {
        guard let address = BluetoothAddress(validating: text) else { preconditionFailure("bad literal \(text)") }
        return address
    }

    static func keyboard(
        _ address: String, _ name: String, _ behavior: SimulatedDevice.PairingBehavior, ble: Bool = true
    )
        -> SimulatedDevice
    {
        var device = SimulatedDevice(address: Self.address(address), name: name)
        device.icon = "input-keyboard"
        if ble {
            device.addressType = "random"
            device.appearance = 0x03C1
            device.uuids = ["00001812-0000-1000-8000-00805f9b34fb"]
        } else {
            device.classOfDevice = 0x002540
            device.uuids = ["00001124-0000-1000-8000-00805f9b34fb"]
        }
        device.pairing = behavior
        return device
    }

    /// A BLE keyboard that types the passkey 4821 (displayed 004821), found only by a scan.
    static var blePasskey: SimulatedDevice { .keychronK3 }
    /// A classic keyboard that asks for a PIN.
    static var legacyPin: SimulatedDevice {
        keyboard("00:0A:95:00:00:01", "Apple Wireless Keyboard", .requestsPinCode, ble: false)
    }
    /// A BLE keyboard that rejects whatever is typed.
    static var rejecting: SimulatedDevice { keyboard("C0:FF:EE:00:00:02", "Rejecting Board", .failsAuthentication) }
    /// The passkey the simulated BlueZ shows for ``rejecting``: its address's last three bytes, modulo 10^6
    /// (0x000002 is 2).
    static let rejectingPasskey = "000002"
    /// A keyboard that is not in pairing mode: BlueZ times out.
    static var silent: SimulatedDevice { keyboard("C0:FF:EE:00:00:03", "Sleeping Board", .neverAnswers) }
    /// A keyboard that needs no prompt.
    static var justWorks: SimulatedDevice { keyboard("C0:FF:EE:00:00:04", "Plain Board", .justWorks) }
    /// A slow typist, for cancel and restart tests.
    static var slowPasskey: SimulatedDevice { keyboard("C0:FF:EE:00:00:05", "Slow Board", .typesPasskey(765_432)) }

    /// A keyboard with a display: BlueZ asks to confirm that both show 246810 (numeric comparison).
    static var comparing: SimulatedDevice {
        keyboard("C0:FF:EE:00:00:06", "Display Board", .comparesPasskey(246_810))
    }
    /// A keyboard that pairs without a code, which BlueZ asks the agent to authorize.
    static var authorizing: SimulatedDevice { keyboard("C0:FF:EE:00:00:07", "Codeless Board", .asksAuthorization) }

    /// Every fixture, with the demo's phone (never a keyboard).
    static var all: [SimulatedDevice] {
        [blePasskey, legacyPin, rejecting, silent, justWorks, slowPasskey, comparing, authorizing, .phone]
    }
}
