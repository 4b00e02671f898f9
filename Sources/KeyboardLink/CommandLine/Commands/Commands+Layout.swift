import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkKeymapFiles
import KeyboardLinkSupport

/// `kblink layout add|list|show|remove`: the layouts kblinkd uses for keyboards by their vendor and product IDs,
/// taught from VIA keyboard definitions.
///
/// The definition is parsed here, in the CLI, never in kblinkd: a hostile file meets this process only, and kblinkd
/// gets the typed layout (``KeyboardLayoutDefinition``) that `AddLayout` checks again (docs/layouts.md).
extension Commands {
    static let layout = Command(
        name: "layout", summary: "Teach kblinkd a keyboard's layout from its VIA definition",
        usageLine: """
            Usage: kblink layout add FILE [--id ID] [--options N,N,...] [--json]
                   kblink layout list [--json]
                   kblink layout show ID [--json]
                   kblink layout remove ID [--json]
            """,
        details: """
            add reads FILE ('-' for standard input), a VIA keyboard definition (v2 or v3 JSON, as in
            the-via/keyboards), and teaches kblinkd its layout for the keyboards with its vendorId and productId.
            A keyboard with those IDs whose keymap draft holds no edits takes it at once (its draft starts over on
            kblink's default keymap for it: 'kblink keymap pull DEVICE' reads what the keyboard holds); one with
            edits keeps its layout until they are pushed or discarded. The layout id is made from the definition's
            name unless --id gives one. --options chooses the layout options, one choice per option group in the
            order of the definition's labels (0 is the first choice; missing groups take their first choice).
            Keys are named like the keys of a built-in layout they sit like (ESC, Q, SPACE), else by their
            matrix position (R2C13). Adding needs org.kblink1.edit-keymap.
            list shows the layouts added, show one with its keys, remove forgets one (keyboards that use it go
            back to the layout their name suggests; refused while a draft with edits uses it).
            JSON: add {ok, id, name, vendorId, productId, version, matrix {rows, cols}, keys,
            options [{name, choices, chosen}], keyboards [{address, alias, outcome}]}; list [{id, name, vendorId,
            productId, keys, source}]; show {id, name, vendorId, productId, matrix {rows, cols}, source,
            keys [{name, zone, x, y, w, h, row, col, action}]}; remove {ok, id, keyboards [...]}.
            """,
        options: ["--id", "--options"]
    ) { context in
        let (subcommand, values) = try KeymapOptions.subcommand(
            context.arguments, ["add": ["FILE"], "list": [], "show": ["ID"], "remove": ["ID"]])
        if subcommand != "add", context.arguments.value("--id") != nil || context.arguments.value("--options") != nil {
            throw ParsedArguments.UsageError("--id and --options are for 'layout add'")
        }
        switch subcommand {
        case "add": return try await LayoutCommands.add(context, file: values[0])
        case "list":
            let client = try await context.client()
            defer { Task { await client.close() } }
            let layouts = try await client.manager.call(KBlinkContract.Manager.listLayouts)
            return try context.output.write(LayoutListResult(layouts: layouts.map(LayoutListResult.Row.init)))
        case "show":
            let id = try LayoutCommands.checkedID(values[0])
            let client = try await context.client()
            defer { Task { await client.close() } }
            let definition = try await client.manager.call(KBlinkContract.Manager.getLayout, id)
            return try context.output.write(LayoutShowResult(definition))
        default:
            let id = try LayoutCommands.checkedID(values[0])
            let client = try await context.client()
            defer { Task { await client.close() } }
            let keyboards = try await client.manager.call(KBlinkContract.Manager.removeLayout, id)
            return try context.output.write(
                LayoutRemoveResult(id: id, keyboards: keyboards.map(LayoutAddResult.Keyboard.init)))
        }
    }
}

enum LayoutCommands {
    /// `layout add FILE`: parse, then `AddLayout`.
    static func add(_ context: CommandContext, file: String) async throws -> ExitStatus {
        let id = try context.arguments.value("--id").map { text in
            do {
                return try LayoutID(text)
            } catch {
                throw ParsedArguments.UsageError("--id: \(error)")
            }
        }
        let options = try context.arguments.value("--options").map(parseOptions) ?? []
        // Read and parse before talking to kblinkd, so a broken file fails fast and never reaches it.
        let bytes = try LocalFile.read(
            file, limit: VIADefinition.maximumSize, what: "a VIA definition",
            standardInput: context.output.io.standardInput)
        let definition: VIADefinition
        do {
            definition = try VIADefinition(json: bytes, id: id, options: options)
        } catch {
            throw LocalFile.Failure(description: "\(file): \(error)")
        }
        let chosen = definition.optionGroups.filter { $0.chosen != 0 }.map { "\($0.name)=\($0.choices[$0.chosen])" }
        let source =
            String(
                ("VIA \(definition.version.rawValue) definition"
                    + (chosen.isEmpty ? "" : ", options: " + chosen.joined(separator: ", "))).utf8.prefix(
                        KeyboardLayoutDefinition.maximumSourceLength)) ?? "VIA definition"
        let payload = KeyboardLayoutDefinition(
            layout: definition.layout, vendorID: definition.vendorID, productID: definition.productID,
            matrixRows: UInt16(definition.matrixRows), matrixColumns: UInt16(definition.matrixColumns),
            source: source)
        let client = try await context.client()
        defer { Task { await client.close() } }
        let keyboards = try await client.manager.call(KBlinkContract.Manager.addLayout, payload)
        return try context.output.write(LayoutAddResult(definition, keyboards: keyboards))
    }

    /// `--options 1,0,2`.
    static func parseOptions(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var options: [Int] = []
        for part in parts {
            guard let number = Int(part), (0..<32).contains(number), parts.count <= 64 else {
                throw ParsedArguments.UsageError(
                    "--options takes one choice per option group, numbers from 0 to 31 separated by commas "
                        + "(--options 1,0,2); got '\(text.errorExcerpt(limit: 64))'")
            }
            options.append(number)
        }
        return options
    }

    /// A layout id argument, checked before it goes to kblinkd.
    static func checkedID(_ text: String) throws -> String {
        do {
            return try LayoutID(text).rawValue
        } catch {
            throw ParsedArguments.UsageError("\(error)")
        }
    }

    /// `0x6F75`.
    static func hex(_ id: UInt16) -> String {
        "0x" + String(id, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

/// `kblink layout add`: the layout taught, and what it did to the keyboards with its IDs.
struct LayoutAddResult: CommandResult {
    /// A layout option group and the choice made.
    struct Option: Encodable {
        let name: String
        let choices: [String]
        let chosen: Int
    }

    /// A keyboard with the layout's IDs.
    struct Keyboard: Encodable {
        let address: String
        let alias: String
        let outcome: String

        init(_ application: LayoutApplication) {
            address = application.address
            alias = application.alias
            outcome = application.outcome
        }
    }

    /// A matrix size.
    struct Matrix: Encodable {
        let rows: Int
        let cols: Int
    }

    let ok = true
    let id: String
    let name: String
    let vendorId: String
    let productId: String
    let version: String
    let matrix: Matrix
    let keys: Int
    let options: [Option]
    let keyboards: [Keyboard]

    init(_ definition: VIADefinition, keyboards: [LayoutApplication]) {
        id = definition.layout.id.rawValue
        name = definition.name
        vendorId = LayoutCommands.hex(definition.vendorID)
        productId = LayoutCommands.hex(definition.productID)
        version = definition.version.rawValue
        matrix = Matrix(rows: definition.matrixRows, cols: definition.matrixColumns)
        keys = definition.layout.keys.count
        options = definition.optionGroups.map { Option(name: $0.name, choices: $0.choices, chosen: $0.chosen) }
        self.keyboards = keyboards.map(Keyboard.init)
    }

    func writeText(to output: Output) {
        output.line(
            "layout \(id) added: \(name.escapingTerminalControls), \(keys) keys, for \(vendorId):\(productId) "
                + "(VIA \(version) definition)")
        for option in options {
            output.line(
                "  option \(option.name.escapingTerminalControls): \(option.choices[option.chosen].escapingTerminalControls)"
                    + " (choices: \(option.choices.enumerated().map { "\($0)=\($1.escapingTerminalControls)" }.joined(separator: ", ")))"
            )
        }
        if keyboards.isEmpty {
            output.line("No keyboard kblinkd knows has these IDs yet; one that has them will use it.")
        }
        for keyboard in keyboards {
            let outcome = keyboard.outcome == LayoutApplication.applied ? "uses it now" : keyboard.outcome
            output.line("  \(keyboard.alias.escapingTerminalControls) (\(keyboard.address)): \(outcome)")
        }
    }
}

/// `kblink layout list`.
struct LayoutListResult: CommandResult {
    /// One layout.
    struct Row: Encodable {
        let id: String
        let name: String
        let vendorId: String
        let productId: String
        let keys: Int
        let source: String

        init(_ summary: LayoutSummary) {
            id = summary.id
            name = summary.name
            vendorId = LayoutCommands.hex(summary.vendorID)
            productId = LayoutCommands.hex(summary.productID)
            keys = Int(summary.keyCount)
            source = summary.source
        }
    }

    let layouts: [Row]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for layout in layouts { try container.encode(layout) }
    }

    func writeText(to output: Output) {
        guard !layouts.isEmpty else {
            output.line("No layouts added. Add one from a VIA definition with 'kblink layout add FILE'.")
            return
        }
        output.table(
            ["ID", "NAME", "IDS", "KEYS", "SOURCE"],
            layouts.map {
                [
                    $0.id, $0.name.escapingTerminalControls, "\($0.vendorId):\($0.productId)", "\($0.keys)",
                    $0.source.escapingTerminalControls,
                ]
            })
    }
}

/// `kblink layout show ID`.
struct LayoutShowResult: CommandResult {
    /// One key.
    struct Key: Encodable {
        let name: String
        let zone: String
        let x: Double
        let y: Double
        let w: Double
        let h: Double
        let row: Int
        let col: Int
        let action: String
    }

    let id: String
    let name: String
    let vendorId: String
    let productId: String
    let matrix: LayoutAddResult.Matrix
    let source: String
    let keys: [Key]

    init(_ definition: KeyboardLayoutDefinition) {
        id = definition.id
        name = definition.name
        vendorId = LayoutCommands.hex(definition.vendorID)
        productId = LayoutCommands.hex(definition.productID)
        matrix = LayoutAddResult.Matrix(rows: Int(definition.matrixRows), cols: Int(definition.matrixColumns))
        source = definition.source
        keys = definition.keys.map {
            Key(
                name: $0.name, zone: $0.zone, x: $0.x, y: $0.y, w: $0.width, h: $0.height, row: Int($0.row),
                col: Int($0.column), action: $0.action)
        }
    }

    func writeText(to output: Output) {
        output.line(
            "\(id): \(name.escapingTerminalControls), for \(vendorId):\(productId), matrix \(matrix.rows) × "
                + "\(matrix.cols), \(keys.count) keys (\(source.escapingTerminalControls))")
        output.table(
            ["KEY", "ZONE", "ROW,COL", "X", "Y", "SIZE", "DEFAULT"],
            keys.map {
                [
                    $0.name.escapingTerminalControls, $0.zone.escapingTerminalControls, "\($0.row),\($0.col)",
                    Self.number($0.x), Self.number($0.y), "\(Self.number($0.w))×\(Self.number($0.h))",
                    $0.action.escapingTerminalControls,
                ]
            })
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e6 ? "\(Int(value))" : "\(value)"
    }
}

/// `kblink layout remove ID`.
struct LayoutRemoveResult: CommandResult {
    let ok = true
    let id: String
    let keyboards: [LayoutAddResult.Keyboard]

    func writeText(to output: Output) {
        output.line("layout \(id) removed")
        for keyboard in keyboards {
            let outcome =
                keyboard.outcome == LayoutApplication.applied
                ? "back on the layout its name suggests" : keyboard.outcome
            output.line("  \(keyboard.alias.escapingTerminalControls) (\(keyboard.address)): \(outcome)")
        }
    }
}
