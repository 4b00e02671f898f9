import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus

/// What `kblink doctor` learned over the bus: from kblinkd (`org.kblink1`), BlueZ (`org.bluez`), systemd and polkit.
/// A value, so that the checks are functions of it and of the host's files (tests give both).
package struct BusFacts: Sendable {
    /// kblinkd's state; nil when it does not own `org.kblink1`.
    package var kblinkd: KBlinkd?
    /// `kblinkd.service` as systemd reports it; nil when systemd is not on the bus.
    package var unit: UnitState?
    /// Whether polkit is on the bus (it owns `org.freedesktop.PolicyKit1`, or the bus can start it).
    package var polkitPresent: Bool
    /// What polkit answers, without asking anybody, for each of kblinkd's actions and `org.kblink1.fix-host`, by id.
    package var permissions: [String: Permission]
    /// Whether bluetoothd owns `org.bluez`.
    package var blueZRunning: Bool
    /// BlueZ's adapters.
    package var adapters: [Adapter]
    /// The user's name (for the fallback group's members).
    package var userName: String?

    /// kblinkd's part.
    package struct KBlinkd: Sendable {
        package var version: String
        package var keyboards: [Keyboard]
        package init(version: String, keyboards: [Keyboard]) {
            self.version = version
            self.keyboards = keyboards
        }
    }

    /// One keyboard as kblinkd describes it.
    package struct Keyboard: Sendable {
        /// `ListKeyboards`' entry.
        package var summary: KeyboardSummary
        /// `Keymap.ApplyOnConnect`; nil when it has no keymap session (not paired) or it could not be read.
        package var applyOnConnect: Bool?
        /// The `Keymap.Diff` rows whose origin is `device` (the keyboard was read to hold something else than the base);
        /// nil when not known.
        package var driftedBindings: [DiffRow]?
        /// `Keyboard.Health`, when this kblinkd publishes it.
        package var health: String?
        /// `Keyboard.HealthDetail`: the step being tried, or the reason and what to do.
        package var healthDetail: String?
        /// `Keyboard.StudioLock`; nil when this kblinkd does not publish it.
        package var studioLock: StudioLock?
        package init(
            summary: KeyboardSummary, applyOnConnect: Bool? = nil, driftedBindings: [DiffRow]? = nil,
            health: String? = nil, healthDetail: String? = nil, studioLock: StudioLock? = nil
        ) {
            self.summary = summary
            self.applyOnConnect = applyOnConnect
            self.driftedBindings = driftedBindings
            self.health = health
            self.healthDetail = healthDetail
            self.studioLock = studioLock
        }
    }

    /// A systemd unit's state.
    package struct UnitState: Sendable {
        /// `ActiveState`: `active`, `inactive`, `failed`, ...
        package var activeState: String
        /// `UnitFileState`: `enabled`, `disabled`, `static`, ...
        package var unitFileState: String
        package init(activeState: String, unitFileState: String) {
            self.activeState = activeState
            self.unitFileState = unitFileState
        }
    }

    /// polkit's answer for one action.
    package enum Permission: Sendable, Equatable {
        /// Allowed without a question.
        case allowed
        /// Allowed after authentication (a password).
        case afterAuthentication
        /// Not allowed.
        case denied
        /// polkit does not know the action, or failed; the message says.
        case unknown(String)
    }

    /// One BlueZ adapter.
    package struct Adapter: Sendable {
        /// Its name (`hci0`).
        package var name: String
        package var address: String
        package var powered: Bool
        package init(name: String, address: String, powered: Bool) {
            self.name = name
            self.address = address
            self.powered = powered
        }
    }

    /// Facts as given.
    package init(
        kblinkd: KBlinkd?, unit: UnitState? = nil, polkitPresent: Bool = false, permissions: [String: Permission] = [:],
        blueZRunning: Bool, adapters: [Adapter], userName: String? = nil
    ) {
        self.kblinkd = kblinkd
        self.unit = unit
        self.polkitPresent = polkitPresent
        self.permissions = permissions
        self.blueZRunning = blueZRunning
        self.adapters = adapters
        self.userName = userName
    }
}

extension BusFacts {
    static let polkitName: BusName = "org.freedesktop.PolicyKit1"
    static let systemdName: BusName = "org.freedesktop.systemd1"
    static let blueZName: BusName = "org.bluez"
    /// The polkit action of `kblink doctor --fix`'s helper.
    package static let fixHostAction = "org.kblink1.fix-host"

    /// Reads everything from the bus at `connection`; what is not there is recorded as absent, never thrown.
    package static func gather(on connection: BusConnection, userName: String?) async -> BusFacts {
        var facts = BusFacts(kblinkd: nil, blueZRunning: false, adapters: [], userName: userName)
        facts.kblinkd = await kblinkd(on: connection)
        facts.unit = await unit(on: connection)
        facts.polkitPresent = await isPresent(polkitName, on: connection)
        if facts.polkitPresent {
            for action in PolkitAction.allCases.map(\.id) + [fixHostAction] {
                facts.permissions[action] = await permission(action, on: connection)
            }
        }
        facts.blueZRunning = (try? await connection.nameOwner(of: blueZName)) != nil
        if facts.blueZRunning { facts.adapters = await adapters(on: connection) }
        return facts
    }

    /// Whether `name` has an owner or the bus can start it.
    static func isPresent(_ name: BusName, on connection: BusConnection) async -> Bool {
        if (try? await connection.nameOwner(of: name)) != nil { return true }
        guard
            let reply = try? await connection.call(
                destination: .messageBus, path: "/org/freedesktop/DBus", interface: .dbus,
                member: "ListActivatableNames"),
            let names = try? reply.decode([String].self)
        else { return false }
        return names.contains(name.rawValue)
    }

    /// kblinkd's state; nil when it neither owns `org.kblink1` nor can be started by the bus (D-Bus activation: the
    /// first call starts it, as any client's would).
    static func kblinkd(on connection: BusConnection) async -> KBlinkd? {
        guard await isPresent(KBlink.service, on: connection) else { return nil }
        let manager = DBusProxy(
            connection: connection, destination: KBlink.service, path: KBlink.managerPath,
            interface: KBlink.managerInterface)
        guard let reply = try? await manager.property("Version") else { return nil }
        let version = reply.stringValue
        let summaries = (try? await manager.call(KBlinkContract.Manager.listKeyboards)) ?? []
        var keyboards: [Keyboard] = []
        for summary in summaries where summary.paired || summary.connected {
            var keyboard = Keyboard(summary: summary)
            let keymap = KeymapClient(connection: connection, path: summary.path)
            keyboard.applyOnConnect = try? await keymap.applyOnConnect()
            keyboard.driftedBindings = (try? await keymap.diff())?.filter { $0.origin == "device" }
            keyboard.health = summary.health.rawValue
            keyboard.healthDetail = summary.healthDetail
            keyboard.studioLock = try? await DBusProxy(
                connection: connection, destination: KBlink.service, path: summary.path,
                interface: KBlinkContract.Keyboard.interface
            ).property(KBlinkContract.Keyboard.studioLockProperty)
            keyboards.append(keyboard)
        }
        return KBlinkd(version: version ?? "unknown", keyboards: keyboards)
    }

    /// A property's value in words (a string as is; a structure's fields joined).
    static func text(_ value: DBusValue) -> String {
        switch value {
        case .variant(let inner): text(inner)
        case .string(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .structure(let fields): fields.map(text).joined(separator: ", ")
        default: "\(value)"
        }
    }

    static func unit(on connection: BusConnection) async -> UnitState? {
        guard
            let reply = try? await connection.call(
                destination: systemdName, path: "/org/freedesktop/systemd1",
                interface: "org.freedesktop.systemd1.Manager", member: "LoadUnit", [.string("kblinkd.service")],
                timeout: .seconds(5)),
            let path = try? reply.decode(ObjectPath.self)
        else { return nil }
        let unit = DBusProxy(
            connection: connection, destination: systemdName, path: path, interface: "org.freedesktop.systemd1.Unit")
        guard let active = try? await unit.property("ActiveState").stringValue ?? nil else { return nil }
        let file = (try? await unit.property("UnitFileState").stringValue) ?? nil
        return UnitState(activeState: active, unitFileState: file ?? "")
    }

    /// polkit's `CheckAuthorization` for this connection, without interaction (flags 0): what the caller may do
    /// without a password, after one, or not at all.
    static func permission(_ action: String, on connection: BusConnection) async -> Permission {
        let subject = DBusValue.structure([
            .string("system-bus-name"),
            .dictionary(
                key: .string, value: .variant,
                [DBusDictionaryEntry(key: .string("name"), value: .variant(.string(connection.uniqueName.rawValue)))]),
        ])
        let arguments: [DBusValue] = [
            subject, .string(action), .dictionary(key: .string, value: .string, []), .uint32(0), .string(""),
        ]
        do {
            let reply = try await connection.call(
                destination: polkitName, path: "/org/freedesktop/PolicyKit1/Authority",
                interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization", arguments,
                timeout: .seconds(10))
            guard case .structure(let fields)? = reply.body.first, fields.count == 3,
                case .boolean(let authorized) = fields[0], case .boolean(let challenge) = fields[1]
            else { return .unknown("polkit answered with \(reply.signature.rawValue)") }
            return authorized ? .allowed : challenge ? .afterAuthentication : .denied
        } catch let error as DBusError {
            return .unknown(error.message.isEmpty ? error.name.rawValue : error.message)
        } catch {
            return .unknown("\(error)")
        }
    }

    static func adapters(on connection: BusConnection) async -> [Adapter] {
        guard
            let reply = try? await connection.call(
                destination: blueZName, path: "/", interface: .objectManager, member: "GetManagedObjects",
                timeout: .seconds(10)),
            let objects = try? reply.decode([ObjectPath: [String: [String: DBusValue]]].self)
        else { return [] }
        return objects.compactMap { path, interfaces -> Adapter? in
            guard let adapter = interfaces["org.bluez.Adapter1"] else { return nil }
            let address = adapter["Address"].flatMap { Self.text($0) } ?? ""
            return Adapter(
                name: path.lastElement, address: address, powered: adapter["Powered"]?.boolValue ?? false)
        }.sorted { $0.name < $1.name }
    }
}
