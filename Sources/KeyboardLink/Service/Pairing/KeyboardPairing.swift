import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPairing

/// `Pair` and `CancelPairing` of `org.kblink1.Manager` (docs/pairing.md): finds the keyboard a caller names in the
/// ``KeyboardRegistry``, runs the ``PairingCoordinator``'s flow, and answers once the keyboard's object shows it
/// paired, trusted and connected.
struct KeyboardPairing: Sendable {
    /// Held weakly: the connection that holds the Manager's handlers (and this) is held by both.
    private weak var registry: KeyboardRegistry?
    private weak var coordinator: PairingCoordinator?
    private let connection: BusConnection

    init(registry: KeyboardRegistry, coordinator: PairingCoordinator, connection: BusConnection) {
        self.registry = registry
        self.coordinator = coordinator
        self.connection = connection
    }

    /// Checks a device argument, refusing empty or overlong text before any lookup.
    static func deviceArgument(_ text: String) throws -> String {
        guard !text.isEmpty, text.utf8.count <= 248 else {
            throw KBlinkError.invalidArgs("give a keyboard address (AA:BB:CC:DD:EE:FF) or a name of at most 248 bytes")
        }
        return text
    }

    /// Pairs, trusts and connects a keyboard given by address or known name; returns its object path.
    func pair(_ text: String, caller: BusName?) async throws -> ObjectPath {
        guard let registry, let coordinator else { throw KBlinkError.failed("kblinkd is stopping") }
        let address = try await registry.pairingAddress(text)
        let path = KBlink.keyboardPath(address)
        await registry.cancelHealing(address, .pairing)
        do {
            try await coordinator.pair(
                address, caller: caller, discoveryTimeout: await registry.discoveryTimeout)
        } catch let failure as PairingFailure {
            throw failure.kblinkError
        }
        await waitUntilExported(
            path,
            [
                KBlinkContract.Keyboard.pairedProperty, KBlinkContract.Keyboard.trustedProperty,
                KBlinkContract.Keyboard.connectedProperty,
            ])
        return path
    }

    /// Cancels the running pairing of a keyboard given by address or name: for the connection that called `Pair`,
    /// or root.
    func cancel(_ text: String, caller: BusName?) async throws {
        guard let registry, let coordinator else { throw KBlinkError.failed("kblinkd is stopping") }
        let address: BluetoothAddress
        if let given = BluetoothAddress(validating: text) {
            address = given
        } else {
            address = try await registry.keyboard(matching: text).address
        }
        do {
            let connection = connection
            try await coordinator.cancel(address, from: caller) { sender in
                await Self.isRoot(sender, on: connection)
            }
        } catch let failure as PairingFailure {
            throw failure.kblinkError
        }
    }

    /// Whether the bus says `sender` runs as uid 0 (`GetConnectionUnixUser`); false when it cannot say.
    static func isRoot(_ sender: BusName, on connection: BusConnection) async -> Bool {
        guard
            let reply = try? await connection.call(
                destination: .messageBus, path: "/org/freedesktop/DBus", interface: .dbus,
                member: "GetConnectionUnixUser", [.string(sender.rawValue)], timeout: .seconds(5)),
            case .uint32(let uid)? = reply.body.first
        else { return false }
        return uid == 0
    }

    /// `ConfirmPairing`: the `Pair` caller's answer to the question about the keyboard given by address or name.
    func confirm(_ text: String, accept: Bool, caller: BusName?) async throws {
        guard let registry, let coordinator else { throw KBlinkError.failed("kblinkd is stopping") }
        let address: BluetoothAddress
        if let given = BluetoothAddress(validating: text) {
            address = given
        } else {
            address = try await registry.keyboard(matching: text).address
        }
        do {
            try await coordinator.answer(address, accept: accept, from: caller)
        } catch {
            throw error.kblinkError
        }
    }

    /// Waits (briefly) until the exported keyboard object shows what BlueZ already said, so that a client reading
    /// it right after `Pair` returns sees it paired, trusted and connected: the reply leaves after these values.
    private func waitUntilExported(_ path: ObjectPath, _ flags: [KBlinkProperty<Bool>]) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while clock.now < deadline {
            var all = true
            for flag in flags {
                if await connection.property(flag, at: path) != true { all = false }
            }
            if all { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
