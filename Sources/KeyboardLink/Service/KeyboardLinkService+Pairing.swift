import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPairing

extension KeyboardLinkService {
    /// `Pair` and `CancelPairing` of `org.kblink1.Manager` (docs/pairing.md).
    func pairingMethods() -> [DBusMethod] {
        [
            DBusMethod(KBlinkContract.Manager.pair) {
                [weak self] (call: MethodCallContext, device: String) -> ObjectPath in
                let text = try Self.deviceArgument(device)
                guard let self else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await self.pair(text, caller: call.sender)
            },
            DBusMethod(KBlinkContract.Manager.cancelPairing) { [weak self] (_: MethodCallContext, device: String) in
                let text = try Self.deviceArgument(device)
                guard let self else { throw KBlinkError.failed("kblinkd is stopping") }
                try await self.cancelPairing(text)
            },
        ]
    }

    /// Pairs, trusts and connects a keyboard given by address or known name; returns its object path.
    func pair(_ text: String, caller: BusName?) async throws -> ObjectPath {
        let address = try pairingAddress(text)
        let path = try await pairing.pair(address, caller: caller, discoveryTimeout: options.discoveryTimeout)
        await waitUntilExported(
            path,
            [
                KBlinkContract.Keyboard.pairedProperty, KBlinkContract.Keyboard.trustedProperty,
                KBlinkContract.Keyboard.connectedProperty,
            ])
        return path
    }

    /// Cancels the running pairing of a keyboard given by address or name.
    func cancelPairing(_ text: String) async throws {
        let address = try BluetoothAddress(validating: text) ?? keyboard(matching: text).address
        try await pairing.cancel(address)
    }

    /// The address to pair: any address (an unknown one is looked for first), or the keyboard a known name
    /// designates.
    func pairingAddress(_ text: String) throws -> BluetoothAddress {
        if let address = BluetoothAddress(validating: text) {
            if let device = PairingCoordinator.find(address, in: snapshot), !Self.isKeyboard(device) {
                throw KBlinkError.notSupported(
                    "\(device.alias) (\(address)) is not a keyboard: pair it with your desktop's Bluetooth settings or bluetoothctl"
                )
            }
            return address
        }
        do {
            return try keyboard(matching: text).address
        } catch let error as DBusError where error.name == KBlinkError.notFound {
            throw KBlinkError.notFound(
                "no keyboard called \"\(text)\" is known: put it in pairing mode and find it with 'kblink scan', or give its address"
            )
        }
    }

    /// Waits (briefly) until the exported keyboard object shows what BlueZ already said, so that a client reading
    /// it right after `Pair` returns sees it paired, trusted and connected: the reply leaves after these values.
    private func waitUntilExported(_ path: ObjectPath, _ flags: [KBlinkProperty]) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while clock.now < deadline {
            var all = true
            for flag in flags {
                let value = await connection.property(flag, at: path)
                if value?.boolValue != true { all = false }
            }
            if all { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
