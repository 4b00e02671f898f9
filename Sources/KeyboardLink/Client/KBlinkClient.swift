import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// A client of the daemon's `org.kblink1` API: the CLI and the tests use it.
public struct KBlinkClient: Sendable {
    /// Why a client could not do what it was asked; each case maps to a CLI exit code.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The bus cannot be reached.
        case busUnreachable(String)
        /// Nobody owns `org.kblink1`.
        case daemonNotRunning(bus: String)
        /// No keyboard matches.
        case notFound(String)
        /// Several keyboards match.
        case ambiguous(String)

        public var description: String {
            switch self {
            case .busUnreachable(let detail): detail
            case .daemonNotRunning(let bus):
                "kblinkd is not running on the \(bus) bus: start it with 'systemctl start kblinkd' (or run 'kblinkd-demo' to try kblink without Bluetooth)"
            case .notFound(let detail): detail
            case .ambiguous(let detail): detail
            }
        }
    }

    public let connection: BusConnection
    public let busDescription: String

    public var manager: DBusProxy {
        DBusProxy(
            connection: connection, destination: KBlink.service, path: KBlink.managerPath,
            interface: KBlink.managerInterface)
    }

    /// Connects to the bus and checks that kblinkd is there.
    /// - Throws: ``Failure``.
    public static func connect(to bus: BusAddress) async throws -> KBlinkClient {
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(to: bus, label: "kblink.client")
        } catch let error as DBusError {
            throw Failure.busUnreachable(error.message)
        }
        let client = KBlinkClient(
            connection: connection, busDescription: bus == .system ? "system" : bus == .session ? "session" : "given")
        guard try await connection.nameOwner(of: KBlink.service) != nil else {
            await connection.close()
            throw Failure.daemonNotRunning(bus: client.busDescription)
        }
        return client
    }

    /// Closes the connection.
    public func close() async {
        await connection.close()
    }

    /// The Manager's properties.
    public func status() async throws -> ManagerStatus {
        ManagerStatus(properties: try await manager.allProperties().values)
    }

    /// How many keyboards are in each health, and the ones waiting, healing or failed (one
    /// `Manager.HealthSummary` call, small however many keyboards there are).
    public func healthSummary() async throws -> KeyboardHealthSummary {
        try await manager.call(KBlinkContract.Manager.healthSummary)
    }

    /// Every keyboard the daemon knows, sorted by name (case-insensitive) then address.
    ///
    /// One `Manager.ListKeyboards` call: a compact typed reply of just what a list shows, instead of
    /// `GetManagedObjects` with every interface of every keyboard in variants (under a third of the bytes for
    /// 1,000 keyboards, see docs/performance.md).
    public func keyboards() async throws -> [KeyboardInfo] {
        let entries = try await manager.call(KBlinkContract.Manager.listKeyboards)
        var keyed: [(key: String, address: String, info: KeyboardInfo)] = []
        keyed.reserveCapacity(entries.count)
        for info in entries {
            keyed.append((info.alias.lowercased(), info.address, info))
        }
        keyed.sort { ($0.key, $0.address) < ($1.key, $1.address) }
        return keyed.map(\.info)
    }

    /// The keyboard with this address or the only one whose name starts with `text` (case-insensitive).
    /// - Throws: ``Failure/notFound(_:)`` or ``Failure/ambiguous(_:)``.
    public func keyboard(matching text: String) async throws -> KeyboardInfo {
        try Self.match(text, in: try await keyboards())
    }

    /// Matching rule of ``keyboard(matching:)`` (the daemon's, ``KeyboardMatcher``), on a given list.
    public static func match(_ text: String, in keyboards: [KeyboardInfo]) throws -> KeyboardInfo {
        let matcher = KeyboardMatcher<KeyboardInfo>(
            address: { BluetoothAddress(validating: $0.address) }, alias: \.alias, name: \.name, paired: \.paired)
        do {
            return try matcher.match(text, in: keyboards)
        } catch .empty {
            throw Failure.notFound("give a keyboard address (AA:BB:CC:DD:EE:FF) or the start of its name")
        } catch .unknownAddress(let address) {
            throw Failure.notFound(
                "no keyboard \(address) is known: pair it with 'kblink pair \(address)' or look with 'kblink scan'")
        } catch .unknownName(let text) {
            throw Failure.notFound("no keyboard is called \"\(text)\": see 'kblink list'")
        } catch .ambiguous(let text, let matches) {
            let names = matches.map { "\($0.alias) (\($0.address))" }.joined(separator: ", ")
            throw Failure.ambiguous("\"\(text)\" matches \(names): give more of the name or the address")
        } catch .unpairedExact(let text, let matches) {
            let listed = matches.map { "\($0.address) (\($0.alias))" }.joined(separator: ", ")
            throw Failure.ambiguous(
                "\"\(text)\" is the name of an unpaired keyboard, and other keyboards' names start with it; a device "
                    + "nearby can choose any name: give the address of the one you mean: \(listed)")
        }
    }

    /// `Manager.SetKeyboardBinding`: stages a key's new action on the keyboard `device` names (an address, or a name
    /// kblinkd resolves as ``keyboard(matching:)`` does), in one call; an empty zone accepts a key of any zone.
    /// - Returns: the keyboard and the binding as kblinkd stored it (the key and action as it resolved them).
    /// - Throws: `KBlinkError` (`NotFound` for no such keyboard, `InvalidArgs` for a name several match or a key or
    ///   action kblinkd cannot resolve, `NotSupported` for a keyboard without a keymap).
    @discardableResult
    public func setBinding(onKeyboard device: String, zone: String = "", layer: Int, key: String, action: String)
        async throws -> KeyboardBindingEdit
    {
        try await manager.call(
            KBlinkContract.Manager.setKeyboardBinding, device, zone, UInt32(clamping: layer), key, action)
    }

    /// A proxy on one keyboard's `org.kblink1.Keyboard` interface.
    public func keyboardProxy(_ keyboard: KeyboardInfo) -> DBusProxy {
        DBusProxy(
            connection: connection, destination: KBlink.service, path: keyboard.path,
            interface: KBlink.keyboardInterface)
    }

    /// Calls a method of a keyboard (`KBlinkContract.Keyboard`'s) with its arguments as Swift values.
    @discardableResult
    public func call<each Argument: DBusRepresentable, Output: KBlinkReply>(
        _ method: KBlinkMethod<KBlinkArguments<repeat each Argument>, Output>, on keyboard: KeyboardInfo,
        _ arguments: repeat each Argument, timeout: Duration = .seconds(40)
    ) async throws -> Output.Value {
        try await keyboardProxy(keyboard).call(method, repeat each arguments, timeout: timeout)
    }

    /// Every signal kblinkd sends (object changes, property changes, pairing prompts), in order.
    public func events() async throws -> SignalStream {
        try await connection.subscribe(to: MatchRule(sender: KBlink.service, pathNamespace: KBlink.managerPath))
    }
}
