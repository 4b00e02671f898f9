import Dispatch
import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

enum Commands {
    static let all: [Command] = [
        status, list, scan, info, connect, disconnect, trust, untrust, forget, watch, insets, pair, keymap, macro,
        profile, layout, oskAgent, doctor,
    ]

    static let status = Command.answering(
        name: "status", summary: "Show kblinkd, BlueZ and hardware-keyboard state",
        usageLine: "Usage: kblink status [--json]",
        details:
            "JSON keys: version, bluezRunning, bluetoothAvailable, discovering, hardwareKeyboardAttached,\nhardwareKeyboards [{source, id, name}], keyboardHealth {working, waiting, healing, failed, asleep, disconnected:\ncount; a health with none left out}, needingAttention [{address, alias, health, healthDetail}] (the keyboards\nwaiting, healing or failed)."
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let client = try await context.client()
        defer { Task { await client.close() } }
        let status = try await client.status()
        return StatusResult(status, health: try await client.healthSummary(), bus: client.busDescription)
    }

    static let list = Command.answering(
        name: "list", summary: "List the Bluetooth keyboards kblinkd knows", usageLine: "Usage: kblink list [--json]",
        details:
            "JSON: an array of {address, name, alias, paired, trusted, connected, bonded, battery [{part, level}], driver,\nhealth (working, waiting, healing, failed, asleep, disconnected), healthDetail, firmware {key: value}, path}; firmware keys are the Firmware property's in camelCase (firmwareRevision).\nEvery JSON key kblink prints is camelCase."
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let client = try await context.client()
        defer { Task { await client.close() } }
        let keyboards = try await client.keyboards()
        // With no keyboard, the text says why: BlueZ may not be running.
        var blueZRunning = true
        if keyboards.isEmpty && !context.output.json { blueZRunning = try await client.status().blueZRunning }
        return KeyboardListResult(keyboards: keyboards, blueZRunning: blueZRunning)
    }

    static func keyboardAction<Input>(
        _ name: String, _ summary: String, method: KBlinkMethod<Input, NoReply>, arguments: [DBusValue] = [],
        done: String
    )
        -> Command
    {
        Command.answering(name: name, summary: summary, usageLine: "Usage: kblink \(name) DEVICE", details: "") {
            context in
            let device = try DeviceArgument.checked(context.arguments.expectPositionals(["DEVICE"])[0])
            let client = try await context.client()
            defer { Task { await client.close() } }
            let keyboard = try await client.keyboard(matching: device)
            try await client.keyboardProxy(keyboard).call(method.declaration, arguments, timeout: .seconds(40))
            return KeyboardActionResult(address: keyboard.address, alias: keyboard.alias, done: done)
        }
    }

    static let connect = keyboardAction(
        "connect", "Connect a paired keyboard", method: KBlinkContract.Keyboard.connect, done: "connected")
    static let disconnect = keyboardAction(
        "disconnect", "Disconnect a keyboard (it stays away until 'kblink connect')",
        method: KBlinkContract.Keyboard.disconnect,
        done:
            "disconnected; it stays disconnected until 'kblink connect' (a trusted keyboard reconnects by itself "
            + "again after bluetoothd or the computer restarts)")
    static let trust = keyboardAction(
        "trust", "Trust a keyboard (it may reconnect by itself)", method: KBlinkContract.Keyboard.setTrusted,
        arguments: [.boolean(true)],
        done: "trusted")
    static let untrust = keyboardAction(
        "untrust", "Stop trusting a keyboard", method: KBlinkContract.Keyboard.setTrusted, arguments: [.boolean(false)],
        done: "no longer trusted")
    static let forget = keyboardAction(
        "forget", "Remove a keyboard's pairing", method: KBlinkContract.Keyboard.forget, done: "forgotten")

    static let scan = Command(
        name: "scan", summary: "Look for keyboards in pairing mode",
        usageLine: "Usage: kblink scan [--timeout S] [--json]",
        details:
            """
            Shows the unpaired keyboards kblinkd already knows, then keyboards as they are found, for S seconds
            (default 10); Ctrl-C stops early. S is a plain decimal number from 1 to 300. When kblinkd stops (or
            its bus closes) the scan says so and exits 3.
            JSON lines: one per keyboard shown (known ones first), the object of 'kblink list --json':
            {address, name, alias, paired, trusted, connected, battery [{part, level}], driver,
            firmware {key: value}, path}.
            """,
        options: ["--timeout"]
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let seconds = try context.arguments.seconds("--timeout", default: 10, range: 1...300)
        let client = try await context.client()
        defer { Task { await client.close() } }
        let output = context.output
        let events = try await client.events()
        try await client.manager.call(KBlinkContract.Manager.startDiscovery)
        let known = try await client.keyboards()
        let seen = SeenSet(known.map(\.address))
        // Unpaired keyboards kblinkd already knows (found by an earlier scan) are shown too, in both modes: they
        // are what a scan is for, and no InterfacesAdded will announce them again.
        let knownUnpaired = known.filter { !$0.paired }
        if !output.json {
            let shown = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
            output.line("Scanning for keyboards for \(shown) s (Ctrl-C to stop)…")
        }
        for keyboard in knownUnpaired {
            if output.json {
                try output.json(encoding: keyboard)
            } else {
                output.line("  found  \(keyboard.address)  \(keyboard.forDisplay.alias)")
            }
        }
        let interrupted: Bool
        do {
            interrupted = try await untilInterrupted(output.io) {
                try await whileDaemonRuns(client) {
                    try await scanEvents(events, seen: seen, output: output, seconds: seconds)
                }
            }
        } catch is DaemonWentAway {
            return output.daemonWentAway()
        }
        _ = try? await client.manager.call(KBlinkContract.Manager.stopDiscovery)
        if !output.json {
            // The count is of the lines shown above: the known unpaired keyboards plus the new ones.
            let new = await seen.count - known.count
            let shown = knownUnpaired.count + new
            output.line(
                (interrupted ? "Stopped. " : "Done. ") + "\(shown) keyboard(s) found, \(new) new."
                    + (shown > 0 ? " Pair one with 'kblink pair DEVICE'." : "")
            )
        }
        return .success
    }

    /// The keyboards a scan finds, shown as they appear, for `seconds`.
    static func scanEvents(_ events: SignalStream, seen: SeenSet, output: Output, seconds: Double) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in events where message.member?.rawValue == "InterfacesAdded" {
                    guard message.body.count == 2, case .objectPath(let path) = message.body[0],
                        let interfaces = try? [String: [String: DBusValue]](dbusValue: message.body[1]),
                        let properties = interfaces[KBlink.keyboardInterface.rawValue]
                    else { continue }
                    let keyboard = KeyboardInfo(path: path, properties: properties)
                    guard await seen.insert(keyboard.address) else { continue }
                    if output.json {
                        try output.json(encoding: keyboard)
                    } else {
                        output.line(
                            "  found  \(keyboard.address)  \(keyboard.forDisplay.alias)"
                                + (keyboard.paired ? " (paired)" : ""))
                    }
                }
                // The stream ends when the bus connection does.
                if !Task.isCancelled { throw DaemonWentAway() }
            }
            group.addTask { try await Task.sleep(for: .seconds(seconds)) }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    static let watch = Command(
        name: "watch", summary: "Print kblinkd's events as they happen", usageLine: "Usage: kblink watch [--json]",
        details: """
            Until Ctrl-C, one line per event in words: 'Aula F87: connected', 'Aula F87: battery 80%',
            'hardware keyboard attached: Aula F87', 'Aula F87: the keymap draft has changes'. When kblinkd stops
            (or its bus closes) watch says so and exits 3.
            JSON lines keep the raw events: {event: added|removed|changed|signal, path, ...}; changed has
            interface and properties (D-Bus names), signal has member and arguments.
            """
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let client = try await context.client()
        defer { Task { await client.close() } }
        let output = context.output
        let events = try await client.events()
        let known = try await client.keyboards()
        if !output.json { output.line("Watching kblinkd (Ctrl-C to stop)…") }
        do {
            _ = try await untilInterrupted(output.io) {
                try await whileDaemonRuns(client) {
                    var text = WatchText(keyboards: known)
                    for await message in events {
                        if output.json {
                            render(message, output)
                        } else {
                            for line in text.lines(for: message) { output.line(line) }
                        }
                    }
                    if !Task.isCancelled { throw DaemonWentAway() }
                }
            }
        } catch is DaemonWentAway {
            return output.daemonWentAway()
        }
        return .success
    }

    static func render(_ message: Message, _ output: Output) {
        guard let member = message.member?.rawValue, let path = message.path else { return }
        switch member {
        case "InterfacesAdded":
            guard message.body.count == 2, case .objectPath(let object) = message.body[0],
                let interfaces = try? [String: [String: DBusValue]](dbusValue: message.body[1])
            else { return }
            if let properties = interfaces[KBlink.keyboardInterface.rawValue] {
                let keyboard = KeyboardInfo(path: object, properties: properties)
                if output.json {
                    try? output.json(encoding: KeyboardAddedEvent(path: object.rawValue, keyboard: keyboard))
                } else {
                    output.line("+ keyboard \(keyboard.forDisplay.alias) (\(keyboard.address))")
                }
            }
        case "InterfacesRemoved":
            guard case .objectPath(let object)? = message.body.first else { return }
            output.json
                ? output.json(.object([("event", .string("removed")), ("path", .string(object.rawValue))]))
                : output.line("- keyboard \(object.lastElement)")
        case "PropertiesChanged":
            guard message.body.count == 3, let changed = message.body[1].stringDictionary else { return }
            if output.json {
                output.json(
                    .object([
                        ("event", .string("changed")), ("path", .string(path.rawValue)),
                        ("interface", .string(message.body[0].stringValue ?? "")),
                        (
                            "properties",
                            .object(changed.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
                        ),
                    ]))
            } else {
                let subject = path == KBlink.managerPath ? "kblinkd" : path.lastElement
                for (key, value) in changed.sorted(by: { $0.key < $1.key }) {
                    output.line("~ \(subject): \(key) = \(JSONValue(value).rendered())")
                }
            }
        default:
            if output.json {
                output.json(
                    .object([
                        ("event", .string("signal")), ("path", .string(path.rawValue)), ("member", .string(member)),
                        ("arguments", .array(message.body.map(JSONValue.init))),
                    ]))
            } else {
                output.line(
                    "* \(path.lastElement): \(member) \(message.body.map { JSONValue($0).rendered() }.joined(separator: " "))"
                )
            }
        }
    }
}

/// Addresses seen during a scan.
actor SeenSet {
    private var addresses: Set<String>
    init(_ initial: [String]) { addresses = Set(initial) }
    func insert(_ address: String) -> Bool { addresses.insert(address).inserted }
    var count: Int { addresses.count }
}
