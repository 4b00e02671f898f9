import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkSupport

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
    /// How many keyboards kblinkd exports in each health, in ``KeyboardHealth``'s order (a word a newer kblinkd adds
    /// after them); a health with none is left out.
    let keyboardHealth: [(health: String, count: Int)]
    /// The keyboards waiting, healing or failed.
    let needingAttention: [KeyboardHealthLine]
    /// The bus kblinkd was found on, in words (text only).
    let bus: String

    /// A keyboard's health in `kblink status`.
    struct KeyboardHealthLine: Encodable, Sendable {
        let address: String
        let alias: String
        let health: String
        /// The step being tried, or why it failed and what to do.
        let healthDetail: String
    }

    /// `keyboardHealth`'s words as keys, in the order given.
    private struct HealthCounts: Encodable {
        let counts: [(health: String, count: Int)]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (health, count) in counts { try container.encode(count, forKey: Key(stringValue: health)) }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case version, bluezRunning, bluetoothAvailable, discovering, hardwareKeyboardAttached, hardwareKeyboards,
            keyboardHealth, needingAttention
    }

    init(_ status: ManagerStatus, health: KeyboardHealthSummary, bus: String) {
        let known = KeyboardHealth.allCases.map(\.wireForm)
        keyboardHealth =
            known.compactMap { word in health.counts[word].map { (word, Int($0)) } }
            + health.counts.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }.map {
                ($0.key, Int($0.value))
            }
        needingAttention = health.needingAttention.map {
            KeyboardHealthLine(
                address: $0.address, alias: $0.alias, health: $0.health.wireForm, healthDetail: $0.healthDetail)
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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(bluezRunning, forKey: .bluezRunning)
        try container.encode(bluetoothAvailable, forKey: .bluetoothAvailable)
        try container.encode(discovering, forKey: .discovering)
        try container.encode(hardwareKeyboardAttached, forKey: .hardwareKeyboardAttached)
        try container.encode(hardwareKeyboards, forKey: .hardwareKeyboards)
        try container.encode(HealthCounts(counts: keyboardHealth), forKey: .keyboardHealth)
        try container.encode(needingAttention, forKey: .needingAttention)
    }

    /// How many attached keyboards `kblink status` names on its one line; the JSON lists them all.
    static let hardwareKeyboardsNamed = 3

    /// The attached keyboards, the first ``hardwareKeyboardsNamed`` by name, then how many more.
    var hardwareKeyboardNames: String {
        let named = hardwareKeyboards.prefix(Self.hardwareKeyboardsNamed).map {
            "\($0.name.escapedForTerminalLine) (\($0.source) \($0.id.escapedForTerminalLine))"
        }
        let more = hardwareKeyboards.count - named.count
        guard more > 0 else { return named.joined(separator: ", ") }
        return named.joined(separator: ", ") + " and \(more) more ('kblink status --json' lists them)"
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
            output.line("Hardware keyboard:  " + output.green("attached") + " — " + hardwareKeyboardNames)
        } else {
            output.line("Hardware keyboard:  none attached")
        }
        if keyboardHealth.isEmpty {
            output.line("Keyboards:          none yet (put one in pairing mode and run 'kblink scan')")
        } else {
            let counts = keyboardHealth.map { "\($0.count) \($0.health.escapedForTerminalLine)" }
            output.line("Keyboards:          " + counts.joined(separator: ", ") + " ('kblink list' shows them)")
        }
        for keyboard in needingAttention {
            let health = KeyboardHealth(rawValue: keyboard.health).map { $0.shown(in: output) } ?? keyboard.health
            let detail = keyboard.healthDetail.isEmpty ? "" : " — " + keyboard.healthDetail.escapedForTerminalLine
            output.line(
                "Keyboard:           \(keyboard.alias.escapedForTerminalLine) (\(keyboard.address)) \(health)\(detail)")
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
        for keyboard in keyboards { try container.encode(keyboard) }
    }

    /// The array streamed item by item (a list of 1,000 keyboards needs no tree of them all at once); the same
    /// text as the encoded value.
    func writeJSON(to output: Output) throws {
        try output.jsonArray(keyboards)
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

/// `kblink watch --json`: a keyboard kblinkd now knows.
struct KeyboardAddedEvent: Encodable {
    let event = "added"
    /// Its object path.
    let path: String
    /// Everything `kblink list --json` shows of it.
    let keyboard: KeyboardInfo
}
