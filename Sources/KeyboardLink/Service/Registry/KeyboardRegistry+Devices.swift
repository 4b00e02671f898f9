import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPairing

/// Finding a keyboard by address or name, and the `org.kblink1.Keyboard` methods that act on it through BlueZ.
extension KeyboardRegistry {

    /// Finds a keyboard by address or unique name prefix (case-insensitive).
    func keyboard(matching text: String) throws -> KeyboardState {
        let matcher = KeyboardMatcher<KeyboardState>(
            address: \.address, alias: \.alias, name: \.name, paired: \.paired)
        do {
            return try matcher.match(text, in: keyboards.values.sorted { $0.address < $1.address })
        } catch .empty {
            throw KBlinkError.invalidArgs("give a keyboard address or name")
        } catch .unknownAddress(let address) {
            throw KBlinkError.notFound("no keyboard \(address) is known; scan for it with 'kblink scan'")
        } catch .unknownName(let text) {
            throw KBlinkError.notFound("no keyboard is called \"\(text)\"; see 'kblink list'")
        } catch .ambiguous(let text, let matches) {
            let names = matches.map { "\($0.alias) (\($0.address))" }.sorted().joined(separator: ", ")
            throw KBlinkError.invalidArgs("\"\(text)\" matches several keyboards: \(names); give the address")
        } catch .unpairedExact(let text, let matches) {
            throw KBlinkError.invalidArgs(Self.unpairedExactMessage(text, matches.map { ($0.alias, $0.address) }))
        }
    }

    /// Why a name that is exactly an unpaired keyboard's, and the start of others', designates none of them.
    static func unpairedExactMessage(_ text: String, _ matches: [(alias: String, address: BluetoothAddress)]) -> String
    {
        let listed = matches.map { "\($0.address) (\($0.alias))" }.joined(separator: ", ")
        return "\"\(text)\" is the name of an unpaired keyboard, and other keyboards' names start with it; a device "
            + "nearby can choose any name: give the address of the one you mean: \(listed)"
    }

    func requireBlueZ(_ action: String) throws {
        guard snapshot.isBlueZRunning else {
            throw KBlinkError.failed(
                "cannot \(action): BlueZ is not running; start it with 'systemctl start bluetooth'")
        }
    }

    func deviceProxy(_ state: KeyboardState) -> DBusProxy {
        DBusProxy(
            connection: connection, destination: BlueZ.service, path: state.devicePath, interface: BlueZ.deviceInterface
        )
    }

    func connect(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("connect")
        guard !state.connected else { return }
        do {
            try await deviceProxy(state).call(BlueZ.Method.connect, timeout: .seconds(30))
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "connect to \(state.alias)")
        }
    }

    /// Disconnects a keyboard so that it stays away until `Connect`. BlueZ stops reconnecting an LE keyboard on its
    /// own after `Device1.Disconnect` only when the keyboard is not trusted at that moment (src/device.c,
    /// `dev_disconnect`); a trusted one that keeps advertising is connected again within seconds. So a trusted
    /// keyboard is untrusted for the call and trusted again right after: BlueZ has then turned its
    /// auto-connection off until the next `Device1.Connect` (or until bluetoothd restarts).
    ///
    /// BlueZ is asked whatever kblinkd's copy of `Connected` says: right after a `Connect` the announcement of the
    /// connection may not have reached kblinkd yet, and a disconnect skipped then would leave the keyboard connected.
    /// BlueZ's `NotConnected` answer counts as done.
    func disconnect(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("disconnect")
        await cancelHealing(state.address, .disconnect)
        let proxy = deviceProxy(state)
        let wasTrusted = snapshot.devices[state.devicePath]?.trusted ?? state.trusted
        if wasTrusted {
            do {
                try await proxy.setProperty(BlueZ.Property.trusted, to: .boolean(false))
            } catch {
                throw KBlinkError.fromBlueZ(error, while: "disconnect \(state.alias)")
            }
        }
        var failure: (any Error)?
        do {
            try await proxy.call(BlueZ.Method.disconnect)
        } catch let error as DBusError where error.name == BlueZ.Error.notConnected {
            // Already down: what was asked for.
        } catch {
            failure = error
        }
        if wasTrusted {
            do {
                try await proxy.setProperty(BlueZ.Property.trusted, to: .boolean(true))
            } catch {
                log(
                    .error,
                    "\(state.alias) was left untrusted after disconnecting: \(error); 'kblink trust' restores it")
                if failure == nil { throw KBlinkError.fromBlueZ(error, while: "trust \(state.alias) again") }
            }
        }
        if let failure { throw KBlinkError.fromBlueZ(failure, while: "disconnect \(state.alias)") }
    }

    func setTrusted(_ address: BluetoothAddress, _ trusted: Bool) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ(trusted ? "trust" : "untrust")
        do {
            try await deviceProxy(state).setProperty(BlueZ.Property.trusted, to: .boolean(trusted))
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "\(trusted ? "trust" : "untrust") \(state.alias)")
        }
    }

    func forget(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("forget")
        await cancelHealing(state.address, .forget)
        guard let adapter = snapshot.devices[state.devicePath]?.adapter else {
            throw KBlinkError.notFound("BlueZ no longer knows \(state.alias)")
        }
        let proxy = DBusProxy(
            connection: connection, destination: BlueZ.service, path: adapter, interface: BlueZ.adapterInterface)
        do {
            try await proxy.call(BlueZ.Method.removeDevice, [.objectPath(state.devicePath)])
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "forget \(state.alias)")
        }
    }

    /// The address to pair: any address (an unknown one is looked for first), or the keyboard a known name
    /// designates.
    func pairingAddress(_ text: String) throws -> BluetoothAddress {
        if let address = BluetoothAddress(validating: text) {
            if let device = PairingCoordinator.find(address, in: snapshot), !device.isKeyboard {
                throw KBlinkError.notSupported(
                    "\(device.alias) (\(address)) is not a keyboard: pair it with your desktop's Bluetooth settings or bluetoothctl"
                )
            }
            return address
        }
        do {
            return try keyboard(matching: text).address
        } catch let error as KBlinkError where error.code == .notFound {
            throw KBlinkError.notFound(
                "no keyboard called \"\(text)\" is known: put it in pairing mode and find it with 'kblink scan', or give its address"
            )
        }
    }
}
