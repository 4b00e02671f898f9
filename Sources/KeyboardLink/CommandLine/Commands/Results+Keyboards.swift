import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkSupport

/// A keyboard as kblink's JSON shows it (`kblink list --json`, scan's lines, the start of `kblink info --json`).
struct KeyboardRecord: Encodable, Sendable {
    /// One battery level.
    struct Battery: Encodable, Sendable {
        let part: String
        let level: Int
    }

    let address: String
    let name: String
    let alias: String
    let paired: Bool
    let trusted: Bool
    let connected: Bool
    let battery: [Battery]
    let driver: String
    /// `Health`: working, waiting, healing, failed, asleep or disconnected.
    let health: String
    /// The Firmware property's entries, keys camelCased like every other key (the D-Bus property's are PascalCase),
    /// sorted by key.
    let firmware: JSONValue
    let path: String

    init(_ keyboard: KeyboardInfo) {
        address = keyboard.address
        name = keyboard.name
        alias = keyboard.alias
        paired = keyboard.paired
        trusted = keyboard.trusted
        connected = keyboard.connected
        battery = keyboard.battery.map { Battery(part: $0.part, level: Int($0.level)) }
        driver = keyboard.driver
        health = keyboard.health.rawValue
        firmware = .object(keyboard.firmware.sorted { $0.key < $1.key }.map { ($0.key.camelCased, .string($0.value)) })
        path = keyboard.path.rawValue
    }
}

/// `kblink status`.
struct StatusResult: CommandResult {
    /// An attached hardware keyboard.
    struct HardwareKeyboard: Encodable, Sendable {
        let source: String
        let id: String
        let name: String
    }

    let version: String
    let bluezRunning: Bool
    let bluetoothAvailable: Bool
    let discovering: Bool
    let hardwareKeyboardAttached: Bool
    let hardwareKeyboards: [HardwareKeyboard]
    /// The keyboards connected or failed, with their health.
    let keyboards: [KeyboardHealthLine]
    /// The bus kblinkd was found on, in words (text only).
    let bus: String

    /// A keyboard's health in `kblink status`.
    struct KeyboardHealthLine: Encodable, Sendable {
        let address: String
        let alias: String
        let health: String
    }

    private enum CodingKeys: String, CodingKey {
        case version, bluezRunning, bluetoothAvailable, discovering, hardwareKeyboardAttached, hardwareKeyboards,
            keyboards
    }

    init(_ status: ManagerStatus, keyboards: [KeyboardInfo], bus: String) {
        self.keyboards = keyboards.filter { $0.connected || $0.health == .failed }.map {
            KeyboardHealthLine(address: $0.address, alias: $0.alias, health: $0.health.rawValue)
        }
        version = status.version
        bluezRunning = status.blueZRunning
        bluetoothAvailable = status.bluetoothAvailable
        discovering = status.discovering
        hardwareKeyboardAttached = status.hardwareKeyboardAttached
        hardwareKeyboards = status.hardwareKeyboards.map {
            HardwareKeyboard(source: $0.source, id: $0.id, name: $0.name)
        }
        self.bus = bus
    }

    func writeText(to output: Output) {
        output.line("kblinkd \(version) on the \(bus) bus")
        if !bluezRunning {
            output.line(
                "BlueZ:              " + output.yellow("not running") + " (start it with 'systemctl start bluetooth')")
        } else if !bluetoothAvailable {
            output.line(
                "BlueZ:              running, " + output.yellow("no powered adapter") + " (try 'bluetoothctl power on')"
            )
        } else {
            output.line("BlueZ:              running, adapter powered" + (discovering ? ", discovering" : ""))
        }
        if hardwareKeyboardAttached {
            let names = hardwareKeyboards.map {
                "\($0.name.escapedForTerminalLine) (\($0.source) \($0.id.escapedForTerminalLine))"
            }.joined(separator: ", ")
            output.line("Hardware keyboard:  " + output.green("attached") + " — \(names)")
        } else {
            output.line("Hardware keyboard:  none attached")
        }
        for keyboard in keyboards {
            let health = KeyboardHealth(rawValue: keyboard.health).map { $0.shown(in: output) } ?? keyboard.health
            output.line(
                "Keyboard:           \(keyboard.alias.escapedForTerminalLine) (\(keyboard.address)) \(health)")
        }
    }
}

/// `kblink list`: the keyboards, an array in JSON.
struct KeyboardListResult: CommandResult {
    let keyboards: [KeyboardInfo]
    /// Whether BlueZ runs (the text for an empty list says so).
    let blueZRunning: Bool

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for keyboard in keyboards { try container.encode(KeyboardRecord(keyboard)) }
    }

    /// The array streamed item by item (a list of 1,000 keyboards needs no tree of them all at once); the same
    /// text as the encoded value.
    func writeJSON(to output: Output) throws {
        let encoder = JSONValueEncoder()
        try output.jsonArray(keyboards) { try encoder.encode(KeyboardRecord($0)) }
    }

    func writeText(to output: Output) {
        if keyboards.isEmpty {
            output.line(
                blueZRunning
                    ? "No keyboards yet. Put one in pairing mode and run 'kblink scan'."
                    : "No keyboards: BlueZ is not running (start it with 'systemctl start bluetooth').")
            return
        }
        output.table(
            ["ADDRESS", "NAME", "CONNECTED", "HEALTH", "PAIRED", "TRUSTED", "BATTERY", "DRIVER"],
            keyboards.map { keyboard in
                [
                    keyboard.address, keyboard.forDisplay.alias, keyboard.connected ? output.green("yes") : "no",
                    keyboard.health.shown(in: output), keyboard.paired ? "yes" : "no", keyboard.trusted ? "yes" : "no",
                    keyboard.batteryText,
                    keyboard.driver,
                ]
            })
    }
}

/// `kblink connect`, `disconnect`, `trust`, `untrust`, `forget`: done, on which keyboard.
struct KeyboardActionResult: CommandResult {
    let ok = true
    let address: String
    /// The keyboard's alias, for the text.
    let alias: String
    /// What happened, in words (text only).
    let done: String

    private enum CodingKeys: String, CodingKey { case ok, address }

    func writeText(to output: Output) {
        output.line("\(alias.escapedForTerminalLine): \(done)")
    }
}
