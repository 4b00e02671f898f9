import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkSupport

/// `kblink watch` in words: each event of kblinkd as a line a person reads (`Aula F87: connected`,
/// `hardware keyboard attached: Aula F87`), keyboards named by their alias.
struct WatchText: Sendable {
    /// Keyboards' aliases by object path, learnt from the list and from the events.
    private var names: [ObjectPath: String]
    /// The hardware keyboards last announced.
    private var hardwareKeyboards: [String] = []

    init(keyboards: [KeyboardInfo]) {
        names = Dictionary(
            keyboards.map { ($0.path, $0.alias.escapedForTerminalLine) }, uniquingKeysWith: { first, _ in first })
    }

    /// The lines an event reads as (none for changes people need not see, such as undo availability).
    mutating func lines(for message: Message) -> [String] {
        guard let member = message.member?.rawValue, let path = message.path else { return [] }
        switch member {
        case "InterfacesAdded":
            guard message.body.count == 2, case .objectPath(let object) = message.body[0],
                let interfaces = try? [String: [String: DBusValue]](dbusValue: message.body[1]),
                let properties = interfaces[KBlink.keyboardInterface.rawValue]
            else { return [] }
            let keyboard = KeyboardInfo(path: object, properties: properties)
            let alias = keyboard.alias.escapedForTerminalLine
            names[object] = alias
            return ["\(alias) (\(keyboard.address)): new keyboard"]
        case "InterfacesRemoved":
            guard case .objectPath(let object)? = message.body.first else { return [] }
            defer { names[object] = nil }
            return ["\(name(of: object)): removed"]
        case "PropertiesChanged":
            guard message.body.count == 3, let interface = message.body[0].stringValue,
                let changed = message.body[1].stringDictionary
            else { return [] }
            if path == KBlink.managerPath { return managerLines(changed) }
            let subject = name(of: path)
            let words =
                interface == KBlink.keymapInterface.rawValue
                ? changed.sorted { $0.key < $1.key }.compactMap { keymapWords($0.key, $0.value) }
                : changed.sorted { $0.key < $1.key }.compactMap { keyboardWords($0.key, $0.value, path: path) }
            return words.map { "\(subject): \($0)" }
        case "PushProgress":
            guard let progress = try? PushProgress(body: message.body) else { return [] }
            return ["\(name(of: path)): pushing the keymap, \(progress.done) of \(progress.total) written"]
        case "Reapplied":
            guard let reapplied = try? Reapplied(body: message.body) else { return [] }
            return [
                "\(name(of: path)): keymap re-applied on connect, \(reapplied.changes.count) binding(s) written back"
            ]
        case "PairingPrompt":
            guard let signal = try? PairingPromptSignal(body: message.body) else { return [] }
            let code = signal.prompt.code
            return [
                "\(name(of: signal.keyboard)): pairing asks to \(signal.prompt.kind.rawValue)"
                    + (code.isEmpty ? "" : " \(code)")
            ]
        case "PairingFinished":
            guard let signal = try? PairingFinishedSignal(body: message.body) else { return [] }
            let text = signal.message
            return [
                "\(name(of: signal.keyboard)): "
                    + (signal.ok ? "paired" : "pairing failed" + (text.isEmpty ? "" : ": \(text)"))
            ]
        default:
            return ["\(path == KBlink.managerPath ? "kblinkd" : name(of: path)): \(member)"]
        }
    }

    private func name(of path: ObjectPath) -> String {
        names[path] ?? path.lastElement
    }

    private mutating func keyboardWords(_ key: String, _ value: DBusValue, path: ObjectPath) -> String? {
        let unwrapped = value.unwrapped
        switch (key, unwrapped) {
        case ("Connected", .boolean(let on)): return on ? "connected" : "disconnected"
        case ("Paired", .boolean(let on)): return on ? "paired" : "no longer paired"
        case ("Trusted", .boolean(let on)): return on ? "trusted" : "no longer trusted"
        case ("Alias", .string(let alias)):
            names[path] = alias.escapedForTerminalLine
            return "now called \(alias.escapedForTerminalLine)"
        case ("Name", .string(let name)): return "reports the name \(name.escapedForTerminalLine)"
        case ("Driver", .string(let driver)):
            return driver == "none" ? "no firmware driver" : "firmware driver \(driver)"
        case ("Battery", _):
            let parts = (try? [KeyboardSummary.BatteryPart](dbusValue: unwrapped)) ?? []
            let text = parts.map { $0.part == "main" ? "\($0.level)%" : "\($0.part) \($0.level)%" }
            return text.isEmpty ? "battery unknown" : "battery " + text.joined(separator: ", ")
        case ("Firmware", _):
            let firmware = (try? [String: String](dbusValue: unwrapped)) ?? [:]
            let text = firmware.map { "\($0.key) \($0.value.escapedForTerminalLine)" }.sorted()
            return "firmware: " + text.joined(separator: ", ")
        case ("Address", _): return nil
        default: return "\(key) changed to \(JSONValue(unwrapped).rendered())"
        }
    }

    private func keymapWords(_ key: String, _ value: DBusValue) -> String? {
        switch (key, value.unwrapped) {
        case ("Dirty", .boolean(let dirty)): return dirty ? "the keymap draft has changes" : "the keymap draft is clean"
        case ("Layers", let count): return "the keymap has \(count.integerValue ?? 0) layer(s)"
        case ("CurrentZone", .string(let zone)): return "showing the \(zone) zone"
        case ("ApplyOnConnect", .boolean(let on)): return on ? "auto-apply on" : "auto-apply off"
        case ("BaseOrigin", .string(let origin)):
            switch origin {
            case "keyboard": return "the keymap's base was read from the keyboard"
            case "pushed": return "the keymap's base is what the last push left on the keyboard"
            default: return "the keymap's base is kblink's default keymap"
            }
        case ("Macros", .dictionary(_, _, let entries)):
            let names = entries.compactMap { $0.key.stringValue }.sorted()
            return names.isEmpty ? "no macros" : "macros " + names.joined(separator: ", ")
        default: return nil
        }
    }

    private mutating func managerLines(_ changed: [String: DBusValue]) -> [String] {
        if let list = changed[KBlinkContract.Manager.hardwareKeyboardsProperty]?.unwrapped,
            let rows = try? [DBusStruct<String, String, String>](dbusValue: list)
        {
            hardwareKeyboards = rows.map { $0.fields.2.escapedForTerminalLine }
        }
        var lines: [String] = []
        for (key, value) in changed.sorted(by: { $0.key < $1.key }) {
            switch (key, value.unwrapped) {
            case ("HardwareKeyboardAttached", .boolean(let attached)):
                lines.append(
                    attached
                        ? "hardware keyboard attached: "
                            + (hardwareKeyboards.isEmpty ? "unnamed" : hardwareKeyboards.joined(separator: ", "))
                        : "no hardware keyboard attached")
            case ("HardwareKeyboards", _):
                if changed["HardwareKeyboardAttached"] == nil, !hardwareKeyboards.isEmpty {
                    lines.append("hardware keyboards: " + hardwareKeyboards.joined(separator: ", "))
                }
            case ("BlueZRunning", .boolean(let on)): lines.append(on ? "BlueZ is running" : "BlueZ stopped")
            case ("BluetoothAvailable", .boolean(let on)):
                lines.append(on ? "a Bluetooth adapter is powered" : "no powered Bluetooth adapter")
            case ("Discovering", .boolean(let on)): lines.append(on ? "scanning for keyboards" : "scan stopped")
            default: lines.append("kblinkd: \(key) changed to \(JSONValue(value.unwrapped).rendered())")
            }
        }
        return lines
    }
}

/// kblinkd left the bus (stopped, or the bus went away) while a stream was running.
struct DaemonWentAway: Error {}

/// Runs `body` until it ends; throws ``DaemonWentAway`` as soon as kblinkd loses its name on the bus or the bus
/// connection ends, so that every stream (`watch`, `scan`, `insets --watch`) ends with a message and exit code 3.
func whileDaemonRuns(_ client: KBlinkClient, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let owner = try await client.connection.subscribe(
        to: MatchRule(
            sender: .messageBus, path: "/org/freedesktop/DBus", interface: .dbus,
            member: MemberName("NameOwnerChanged"), arg0: KBlink.service.rawValue))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await body() }
        group.addTask {
            for await message in owner where message.body.count == 3 && message.body[2].stringValue == "" {
                throw DaemonWentAway()
            }
            // The stream ends when the bus connection does (or when this task is cancelled).
            if !Task.isCancelled { throw DaemonWentAway() }
        }
        try await group.next()
        group.cancelAll()
    }
}

extension Output {
    /// The end of a stream whose kblinkd went away: says so, gives exit code 3.
    func daemonWentAway() -> ExitStatus {
        error("kblinkd went away (it stopped, or its bus closed); the stream ended")
        return .daemonUnreachable
    }
}
