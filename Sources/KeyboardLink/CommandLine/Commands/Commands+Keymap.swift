import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    static let keymap = Command(
        name: "keymap", summary: "Show and edit a keyboard's key mapping (staged in a draft)",
        usageLine: """
            Usage: kblink keymap show DEVICE [--zone Z] [--layer N] [--ascii] [--names] [--json]
                   kblink keymap set DEVICE KEY ACTION [--zone Z] [--layer N] [--json]
                   kblink keymap undo|redo|discard DEVICE [--json]
                   kblink keymap layer add|remove DEVICE N [--json]
                   kblink keymap layer move|copy DEVICE FROM TO [--json]
                   kblink keymap layer rename DEVICE N [NAME] [--json]
                   kblink keymap diff DEVICE [--json]
                   kblink keymap push DEVICE [--dry-run] [--no-verify] [--overwrite] [--keep-keyboard]
                                      [--[no-]apply-on-connect] [--json]
                   kblink keymap pull DEVICE [--json]
                   kblink keymap physical-layout list DEVICE [--json]
                   kblink keymap physical-layout set DEVICE INDEX [--force] [--json]
                   kblink keymap auto-apply DEVICE [on|off] [--json]
                   kblink keymap export DEVICE --format zmk|qmk|vil|keymap-drawer [FILE|-] [--keyboard] [--json]
                   kblink keymap import DEVICE FILE|- [--format zmk|qmk|vil] [--replace] [--json]
            """,
        details: """
            show     draws the keyboard with what each key does on layer N (default 0): keys at their places,
                     zones in colour (or tagged f/n/# in plain output), keys changed in the draft marked '*'.
                     --zone Z labels only that zone's keys; --ascii draws with + - | only; --names labels each key
                     with its key name instead (what 'set' and profiles call it).
                     Says where the draft's base came from and when (read from the keyboard, pushed, or kblink's
                     default keymap) and the layer's name. JSON: {address, layout, layer, layerName ("" for none),
                     layerNames (per layer), layers, zones, currentZone, dirty, baseOrigin
                     ("keyboard", "pushed" or "default"), baseSince (ISO 8601 or null), keys [{key, zone, action,
                     changed, x, y, w, h}]}.
            set      stages KEY on layer N to do ACTION. KEY is a key name (CAPS, ENTER, KP_1; 'show --names'
                     lists them), or what the key's cap says in any spelling: the label 'show' draws on a fresh
                     layer 0 (ENT, GRV, MO(1)) or its QMK, ZMK or evdev name (KC_ENT, RET, KEY_ENTER). ACTION in QMK (KC_LCTL,
                     LSFT(KC_1), MO(1), LT(1, KC_SPC)), ZMK (LCTRL, LS(N1)) or evdev (KEY_LEFTCTRL) spelling, or
                     MACRO(name); with --zone Z the key must be in that zone. One call to kblinkd, which finds
                     the keyboard by address or name. Prints the key and action as kblinkd stored them; JSON:
                     {ok, address, key, layer, action}. Warns when the keyboard's firmware cannot hold ACTION.
            undo     undoes the last edit; redo redoes it; discard drops the whole draft.
            layer    add N inserts a transparent layer at N (1 up to the layer count; layers from N move up, and
                     layer switches to them follow); remove N removes layer N (not 0) when no key switches to it
                     (layers above move down); move FROM TO moves layer FROM to TO (the layers between shift by
                     one); copy FROM TO copies every binding of layer FROM onto layer TO; rename N NAME names layer
                     N (at most 64 bytes, no control characters; without NAME or with '' the name is cleared).
                     Every layer switch (MO, LT, TG, TO and QMK's DF, OSL, TT, LM; ZMK's &mo, &lt, &tog, &to)
                     follows its layer. Each is one undoable edit.
            diff     lists the keys whose action the draft changes against the base (origin draft), the layers
                     added or removed and the macros added, changed or removed. When the keyboard is connected and
                     speaks ZMK Studio or VIA (read as 'push --dry-run' does), each key shows three columns, BASE,
                     DRAFT and KEYBOARD, and the keys the keyboard changed by itself are listed too (origin
                     keyboard: a push keeps them), those both changed as origin conflict. JSON: an array of {zone,
                     layer, key, old (the base), new (the draft), keyboard (null when not read), origin}; layer rows
                     have zone "layer" and an empty key, layer-name rows zone "name" (old and new name), macro rows
                     zone "macro" and the macro's name as key.
            push     writes the user's edits to the keyboard's firmware (ZMK Studio or VIA). The draft is the
                     base (what kblinkd last read from or wrote to the keyboard; 'show' says which and when) plus
                     the edits; the push reads the keyboard and writes only the keys the draft changed. Keys the
                     keyboard changed by itself are kept and listed; a key both changed, differently, is a
                     conflict that stops the push, named, unless --keep-keyboard (keep the keyboard's) or
                     --overwrite (make the keyboard equal to the whole draft; says how many keys the draft had
                     not changed it overwrites). A base never read from the keyboard is read first. Written keys
                     are read back to verify (unless --no-verify), then saved; what the keyboard holds becomes the
                     new base. --dry-run lists what would be written, kept and in conflict, and every binding the
                     firmware cannot hold (key, layer, action, why), and exits 1 only when a real push would fail.
                     Layers the draft binds keys on that the keyboard lacks are added where the firmware can;
                     on ZMK Studio, layers the draft removed are removed and layer names it changed are written.
                     A locked keyboard asks for its unlock key. JSON: {ok, dryRun, written, macroSlots,
                     layersAdded, layersRemoved, layersRenamed, applyOnConnect, verified, saved, driver,
                     uneditedWrites, changes [{layer, key, old, new}],
                     kept and conflicts [{layer, key, base, draft, keyboard}], problems [{layer, key, action,
                     reason}]}. Exit 1 on a conflict.
                     --apply-on-connect (or --no-apply-on-connect) also turns auto-apply on (off) once the push
                     succeeded.
            pull     reads the keyboard's keymap (and VIA macro slots) through its firmware protocol into the base and
                     the draft, as one edit: 'kblink keymap undo' brings the draft's edits back on the new base.
                     Bindings kblink cannot express are pulled as cleared (counted as unknown); a push leaves them
                     on the keyboard unless you edit them. A following push writes nothing. A locked keyboard asks
                     for its unlock key. JSON: {ok, address, driver, changed, bindings, layers, deviceLayers, macros,
                     unknown, dirty, canUndo, undoable, baseOrigin}.
            physical-layout  list reads the physical layouts the keyboard's ZMK Studio firmware knows (its key
                     arrangements, e.g. with and without a function row) and marks the active one; set INDEX
                     makes layout INDEX (as numbered by list) the active one and saves it on the keyboard, then
                     reads the keymap again as 'pull' does, on the new layout's keys (keys the layout does not
                     place are pulled as cleared, and a push leaves them alone). Refused while the draft has edits
                     a push has not written, unless --force (the read is then one edit: 'kblink keymap undo'
                     brings them back). Not for VIA keyboards. JSON (list): {address, layouts [{index, name, keys,
                     active}]}; (set): {ok, index, name, pull {as 'pull'}}.
            auto-apply  shows, or turns on or off, re-applying on connect: each time the keyboard connects,
                     kblinkd reads it and writes back the bindings that differ from the keymap last pushed (not the
                     unpushed draft), logging what had drifted. Needs a pushed keymap. JSON: {address, applyOnConnect}.
            export   writes the draft (with --keyboard: what the keyboard holds, read as 'push --dry-run' does) as a
                     ZMK .keymap, a QMK keymap.json (qmk c2json's shape), a Vial .vil or keymap-drawer YAML, to
                     FILE (replaced atomically; keymap-drawer's physical layout goes beside it as FILE's
                     .info.json) or, without FILE or with '-', to standard output. Refused, naming the key, when the
                     format cannot hold a binding. JSON (to a file): {alias, format, files, layers, keys, source, ok}.
            import   reads a ZMK .keymap, QMK keymap.json or Vial .vil (FILE, '-' for standard input, at most 4 MiB;
                     the format from --format or guessed from the content) and stages it like 'profile import':
                     merged (what the file leaves out stays) or, with --replace, replacing everything; every change
                     listed, one undo takes it back. What kblink cannot represent (sticky keys, &bt, tap dances,
                     ...) is refused with its line and column. The file is parsed by kblink, not kblinkd.
                     docs/keymap-files.md says what maps to what. JSON: as 'profile import'.
            Zones: standard, number, function, navigation. Edits are saved by kblinkd at once; 'keymap diff'
            shows what is staged.
            """,
        flags: Set([
            "--ascii", "--names", "--dry-run", "--no-verify", "--apply-on-connect", "--no-apply-on-connect",
            "--overwrite", "--keep-keyboard", "--force",
        ]).union(KeymapFileCommands.flags),
        options: Set(["--zone", "--layer"]).union(KeymapFileCommands.options)
    ) { context in
        let (subcommand, values) = try KeymapOptions.subcommand(
            context.arguments,
            [
                "show": ["DEVICE"], "set": ["DEVICE", "KEY", "ACTION"], "undo": ["DEVICE"], "redo": ["DEVICE"],
                "discard": ["DEVICE"], "diff": ["DEVICE"], "push": ["DEVICE"], "pull": ["DEVICE"],
                "auto-apply": ["DEVICE"], "layer": ["add|remove|move|copy|rename", "DEVICE", "N"],
                "export": ["DEVICE"], "import": ["DEVICE", "FILE"], "physical-layout": ["list|set", "DEVICE"],
            ],
            optional: [
                "auto-apply": ["on|off"], "export": ["FILE"], "layer": ["TO|NAME"], "physical-layout": ["INDEX"],
            ])
        let arguments = context.arguments
        try KeymapFileCommands.checkOptions(subcommand, arguments)
        if !["show", "set"].contains(subcommand) {
            for option in ["--zone", "--layer"] where arguments.value(option) != nil {
                throw ParsedArguments.UsageError("\(option) is for 'keymap show' and 'keymap set'")
            }
        }
        for flag in ["--ascii", "--names"] where subcommand != "show" && arguments.has(flag) {
            throw ParsedArguments.UsageError("\(flag) is for 'keymap show'")
        }
        if subcommand != "physical-layout" && arguments.has("--force") {
            throw ParsedArguments.UsageError("--force is for 'keymap physical-layout set'")
        }
        if subcommand == "layer" {
            return try await layerEdit(context, values)
        }
        if subcommand == "physical-layout" { return try await physicalLayout(context, values) }
        if subcommand == "export" { return try await KeymapFileCommands.export(context, values) }
        if subcommand == "import" { return try await KeymapFileCommands.import(context, values) }
        if subcommand != "push",
            [
                "--dry-run", "--no-verify", "--apply-on-connect", "--no-apply-on-connect", "--overwrite",
                "--keep-keyboard",
            ].contains(where: arguments.has)
        {
            throw ParsedArguments.UsageError(
                "--dry-run, --no-verify, --overwrite, --keep-keyboard, --apply-on-connect and --no-apply-on-connect "
                    + "are for 'keymap push'")
        }
        let autoApply = subcommand == "auto-apply" ? try autoApplyValue(values.dropFirst().first) : nil
        let layer = try KeymapOptions.layer(arguments)
        let zone = try KeymapOptions.zone(arguments)
        if subcommand == "set" {
            return try await setKey(
                context, device: values[0], key: values[1], action: values[2], zone: zone, layer: layer)
        }
        return try await KeymapTarget.with(context, device: values[0]) { target in
            switch subcommand {
            case "show": return try await showKeymap(target, context, zone: zone, layer: layer)
            case "diff": return try await showDiff(target, context)
            case "push": return try await pushKeymap(target, context)
            case "pull": return try await pullKeymap(target, context)
            case "auto-apply": return try await showOrSetAutoApply(target, context, autoApply)
            default: return try await step(target, context, subcommand)
            }
        }
    }

    static func showKeymap(_ target: KeymapTarget, _ context: CommandContext, zone: String?, layer: Int) async throws
        -> ExitStatus
    {
        let state = target.state
        if let zone, !state.zones.contains(zone) {
            throw KBlinkError.invalidArgs(
                "layout \(state.layout) has no \(zone) zone; it has \(state.zones.joined(separator: ", "))")
        }
        let keys = try await target.keymap.keys()
        var actions: [String: String] = [:]
        for shown in zone.map({ [$0] }) ?? state.zones {
            for binding in try await target.keymap.bindings(zone: shown, layer: layer) {
                actions[binding.key] = binding.action
            }
        }
        let changed = Set(
            try await target.keymap.diff().filter {
                $0.layer == layer && $0.origin == "draft" && state.zones.contains($0.zone)
            }.map(\.key))
        let output = context.output
        if output.json {
            output.json(
                .object([
                    ("address", .string(target.keyboard.address)), ("layout", .string(state.layout)),
                    ("layer", .integer(Int64(layer))),
                    ("layerName", .string(state.layerNames.indices.contains(layer) ? state.layerNames[layer] : "")),
                    ("layerNames", .array(state.layerNames.map { .string($0) })),
                    ("layers", .integer(Int64(state.layers))),
                    ("zones", .array(state.zones.map { .string($0) })), ("currentZone", .string(state.currentZone)),
                    ("dirty", .bool(state.dirty)), ("baseOrigin", .string(state.baseOrigin)),
                    (
                        "baseSince",
                        state.baseSince > 0 ? .string(WallClockTime(secondsSince1970: state.baseSince).iso8601) : .null
                    ),
                    (
                        "keys",
                        .array(
                            keys.compactMap { key in
                                actions[key.key].map { action in
                                    .object([
                                        ("key", .string(key.key)), ("zone", .string(key.zone)),
                                        ("action", .string(action)), ("changed", .bool(changed.contains(key.key))),
                                        ("x", .number(key.x)), ("y", .number(key.y)), ("w", .number(key.width)),
                                        ("h", .number(key.height)),
                                    ])
                                }
                            })
                    ),
                ]))
            return .success
        }
        let ascii = context.arguments.has("--ascii")
        let names = context.arguments.has("--names")
        var header = output.bold(target.keyboard.alias) + (ascii ? " - " : " — ")
        header += "layout \(state.layout), layer \(layer)"
        if state.layerNames.indices.contains(layer), !state.layerNames[layer].isEmpty {
            header += " (\(state.layerNames[layer]))"
        }
        header += " of 0-\(max(state.layers - 1, 0))"
        if let zone { header += ", \(zone) zone" }
        header += state.dirty ? "; the draft has changes ('kblink keymap diff')" : "; no changes in the draft"
        output.line(header)
        output.line(baseText(state))
        let width = output.isTerminal ? output.io.terminalColumns() : 0
        let picture = KeymapPicture(
            keys: keys.map { key in
                KeymapPicture.Key(
                    info: key, action: names ? (actions[key.key] == nil ? nil : key.key) : actions[key.key],
                    changed: changed.contains(key.key), verbatim: names)
            },
            ascii: ascii, usesColor: output.color && !ascii,
            columnsPerUnit: width > 0 ? KeymapPicture.columnsPerUnit(fitting: keys, into: width) : 6)
        for line in picture.render() { output.line(line) }
        return .success
    }

    /// Where the draft's base came from and when: `the draft's base: read from the keyboard at 2026-12-02T04:10:00Z`.
    static func baseText(_ state: KeymapState) -> String {
        let since = state.baseSince > 0 ? " at " + WallClockTime(secondsSince1970: state.baseSince).iso8601 : ""
        switch state.baseOrigin {
        case "keyboard": return "the draft's base: read from the keyboard\(since)"
        case "pushed": return "the draft's base: what the last push left on the keyboard\(since)"
        case "default":
            return "the draft's base: kblink's default keymap for \(state.layout) (the keyboard's own keymap is read "
                + "when it connects, or by 'kblink keymap pull'; a push reads it first)"
        default: return "the draft's base: \(state.baseOrigin.isEmpty ? "not said by kblinkd" : state.baseOrigin)"
        }
    }

    /// `kblink keymap set`: one `Manager.SetKeyboardBinding` call, whose answer is the keyboard kblinkd found (by
    /// address or name) and the binding as it stored it (the key and action as it resolved them, and whether the
    /// firmware can hold the action). Only when kblinkd has not yet learned what the keyboard's firmware holds does a
    /// `CheckAction` follow, for the warning.
    static func setKey(
        _ context: CommandContext, device: String, key: String, action: String, zone: String?, layer: Int
    ) async throws -> ExitStatus {
        let client = try await context.client()
        let edit: KeyboardBindingEdit
        do {
            edit = try await client.setBinding(
                onKeyboard: device, zone: zone ?? "", layer: layer, key: key, action: action)
        } catch {
            await client.close()
            throw error
        }
        let stored = edit.stored
        // The alias is the device's choice unless the user set one: escaped for the terminal.
        let label = edit.alias.escapedForTerminalLine
        let output = context.output
        if output.json {
            output.json(
                .object([
                    ("ok", .bool(true)), ("address", .string(edit.address)), ("key", .string(stored.key)),
                    ("layer", .integer(Int64(stored.layer))), ("action", .string(stored.action)),
                ]))
        } else {
            output.line(
                "\(label): \(stored.key) on layer \(stored.layer) now does \(stored.action) (staged in the draft)")
        }
        // Pre-flight: say at once when the keyboard's firmware cannot hold the action.
        var problem = stored.firmwareProblem
        if !stored.firmwareChecked, let address = BluetoothAddress(validating: edit.address) {
            let keymap = KeymapClient(connection: client.connection, path: KBlink.keyboardPath(address))
            problem = (try? await keymap.check(action: action)).flatMap { $0 } ?? ""
        }
        await client.close()
        if !problem.isEmpty {
            output.writeError(
                "kblink: warning: \(label)'s firmware cannot hold \(action) on \(stored.key): "
                    + "\(problem); a push would fail until it is changed")
        }
        return .success
    }

    /// `kblink keymap diff`: the draft's changes against the base and, when the keyboard can be read (as
    /// `push --dry-run` reads it), what the keyboard holds: the three columns BASE, DRAFT and KEYBOARD where they
    /// differ, with the keys the keyboard changed by itself (origin keyboard) and those both changed (conflict).
    static func showDiff(_ target: KeymapTarget, _ context: CommandContext) async throws -> ExitStatus {
        var rows = try await target.keymap.diff()
        let output = context.output
        var holding: [String: String]?
        var unread: String?
        if target.keyboard.connected, ["zmk-studio", "via"].contains(target.keyboard.driver) {
            do {
                // A keyboard that does not answer within seconds is reported, not waited for.
                let plan = try await target.keymap.push(dryRun: true, unlockTimeout: 0, callTimeout: .seconds(5))
                let zones = try await Dictionary(
                    target.keymap.keys().map { ($0.key, $0.zone) }, uniquingKeysWith: { first, _ in first })
                rows.removeAll { $0.origin == "device" }
                var held: [String: String] = [:]
                for change in plan.changes { held["\(change.layer)/\(change.key)"] = change.old }
                var conflicts = Set<String>()
                for row in plan.conflicts {
                    held["\(row.layer)/\(row.key)"] = row.keyboard
                    conflicts.insert("\(row.layer)/\(row.key)")
                }
                rows = rows.map { row in
                    var row = row
                    if conflicts.contains("\(row.layer)/\(row.key)") { row.origin = "conflict" }
                    return row
                }
                for row in plan.kept {
                    held["\(row.layer)/\(row.key)"] = row.keyboard
                    rows.append(
                        KeymapDiffRow(
                            zone: zones[row.key] ?? "", layer: row.layer, key: row.key, old: row.base, new: row.draft,
                            origin: "keyboard"))
                }
                holding = held
            } catch let error as any DBusErrorRepresentable {
                let error = error.dbusError
                unread = error.message.isEmpty ? error.name.rawValue : error.message
            } catch {
                unread = "\(error)"
            }
        }
        /// What the keyboard holds for a binding row: what the push plan saw, else (not written) the draft's.
        func keyboard(_ row: KeymapDiffRow) -> String? {
            guard let holding, !["layer", "macro", "name"].contains(row.zone) else { return nil }
            return holding["\(row.layer)/\(row.key)"] ?? row.new
        }
        if output.json {
            output.json(
                .array(
                    rows.map { row in
                        .object([
                            ("zone", .string(row.zone)), ("layer", .integer(Int64(row.layer))),
                            ("key", .string(row.key)),
                            ("old", .string(row.old)), ("new", .string(row.new)),
                            ("keyboard", keyboard(row).map(JSONValue.string) ?? .null), ("origin", .string(row.origin)),
                        ])
                    }))
            return .success
        }
        let name = target.keyboard.alias
        if let unread { output.line("\(name): what the keyboard holds was not read: \(unread)") }
        if rows.isEmpty {
            output.line(
                "\(name): no changes; the draft equals "
                    + (holding != nil ? "what the keyboard holds" : "the keymap last pushed or pulled"))
            return .success
        }
        let bindings = rows.filter { !["layer", "macro", "name"].contains($0.zone) }
        if !bindings.isEmpty {
            if holding != nil {
                output.table(
                    ["ZONE", "LAYER", "KEY", "BASE", "DRAFT", "KEYBOARD", "ORIGIN"],
                    bindings.map { [$0.zone, String($0.layer), $0.key, $0.old, $0.new, keyboard($0) ?? "", $0.origin] })
            } else {
                output.table(
                    ["ZONE", "LAYER", "KEY", "OLD", "NEW", "ORIGIN"],
                    bindings.map { [$0.zone, String($0.layer), $0.key, $0.old, $0.new, $0.origin] })
            }
        }
        for row in rows where row.zone == "layer" {
            output.line(row.new.isEmpty ? "layer \(row.layer) removed" : "layer \(row.layer) added")
        }
        for row in rows where row.zone == "name" {
            output.line(
                "layer \(row.layer) named " + (row.new.isEmpty ? "nothing" : "'\(row.new)'")
                    + (row.old.isEmpty ? "" : " (was '\(row.old)')"))
        }
        for row in rows where row.zone == "macro" {
            let change =
                row.old.isEmpty
                ? "added: \(row.new)" : row.new.isEmpty ? "removed (was \(row.old))" : "\(row.old) -> \(row.new)"
            output.line("macro \(row.key) \(change)")
        }
        let origins = Set(bindings.map(\.origin))
        if origins.contains("keyboard") {
            output.line(
                "origin keyboard: the keyboard changed it by itself; a push keeps it ('push --overwrite' writes the "
                    + "draft's)")
        }
        if origins.contains("conflict") {
            output.line(
                "origin conflict: changed in the draft and on the keyboard; a push stops ('push --keep-keyboard' "
                    + "keeps the keyboard's, 'push --overwrite' writes the draft's)")
        }
        if origins.contains("device") {
            output.line("origin device: the keyboard was last read to hold OLD")
        }
        return .success
    }

    /// undo, redo, discard.
    static func step(_ target: KeymapTarget, _ context: CommandContext, _ subcommand: String) async throws
        -> ExitStatus
    {
        let before = try await target.keymap.diff().filter { $0.origin == "draft" }
        switch subcommand {
        case "undo": try await target.keymap.undo()
        case "redo": try await target.keymap.redo()
        default: try await target.keymap.discard()
        }
        let after = try await target.keymap.diff().filter { $0.origin == "draft" }
        let changes = stepChanges(before: before, after: after)
        let state = try await target.keymap.state()
        let output = context.output
        if output.json {
            output.json(
                .object([
                    ("ok", .bool(true)), ("canUndo", .bool(state.canUndo)), ("canRedo", .bool(state.canRedo)),
                    ("dirty", .bool(state.dirty)),
                    (
                        "changes",
                        .array(
                            changes.map {
                                .object([
                                    ("zone", .string($0.zone)), ("layer", .integer(Int64($0.layer))),
                                    ("key", .string($0.key)), ("old", .string($0.old)), ("new", .string($0.new)),
                                ])
                            })
                    ),
                ]))
        } else {
            let done = ["undo": "undone", "redo": "redone"][subcommand] ?? "draft discarded"
            output.line(
                "\(target.keyboard.alias): \(done); can undo: \(state.canUndo ? "yes" : "no"), can redo: "
                    + "\(state.canRedo ? "yes" : "no"), draft: \(state.dirty ? "has changes" : "clean")")
            for change in changes {
                switch change.zone {
                case "layer": output.line("  layer \(change.layer) " + (change.new.isEmpty ? "removed" : "added"))
                case "name":
                    output.line("  layer \(change.layer) named " + (change.new.isEmpty ? "nothing" : "'\(change.new)'"))
                case "macro":
                    output.line(
                        "  macro \(change.key): " + (change.old.isEmpty ? "(none)" : change.old) + " -> "
                            + (change.new.isEmpty ? "(none)" : change.new))
                default: output.line("  \(change.key) on layer \(change.layer): \(change.old) -> \(change.new)")
                }
            }
            if subcommand == "discard" && !changes.isEmpty {
                output.line("'kblink keymap undo' brings the draft back.")
            }
        }
        return .success
    }

    /// What a step changed in the draft, from the draft rows of `Diff()` before and after it: for each binding,
    /// layer or macro whose row differs, what it was and what it is now (a missing row is the base's value).
    static func stepChanges(before: [KeymapDiffRow], after: [KeymapDiffRow]) -> [KeymapDiffRow] {
        func id(_ row: KeymapDiffRow) -> String { "\(row.zone)/\(row.layer)/\(row.key)" }
        let old = Dictionary(before.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var result: [KeymapDiffRow] = []
        for row in before + after where seen.insert(id(row)).inserted {
            let was = old[id(row)]
            let now = new[id(row)]
            guard was?.new != now?.new else { continue }
            // A layer row's old side is the base: present then absent reads "layer N" -> "".
            let from = was?.new ?? row.old
            let to = now?.new ?? row.old
            guard from != to else { continue }
            result.append(
                KeymapDiffRow(zone: row.zone, layer: row.layer, key: row.key, old: from, new: to, origin: "draft"))
        }
        return result
    }

    /// `keymap layer add|remove DEVICE N`, `keymap layer move|copy DEVICE FROM TO`, `keymap layer rename DEVICE N
    /// [NAME]`.
    static func layerEdit(_ context: CommandContext, _ values: [String]) async throws -> ExitStatus {
        let verb = values[0]
        guard ["add", "remove", "move", "copy", "rename"].contains(verb) else {
            throw ParsedArguments.UsageError("'keymap layer' takes add, remove, move, copy or rename, not '\(verb)'")
        }
        func layerNumber(_ text: String, _ what: String) throws -> Int {
            guard let layer = Int(text), (0..<Keymap.maximumLayers).contains(layer) else {
                throw ParsedArguments.UsageError(
                    "\(what) is a layer number from 0 to \(Keymap.maximumLayers - 1); got '\(text)'")
            }
            return layer
        }
        let layer = try layerNumber(values[2], verb == "move" || verb == "copy" ? "FROM" : "N")
        let extra = values.count > 3 ? values[3] : nil
        var target: Int?
        switch verb {
        case "move", "copy":
            guard let extra else { throw ParsedArguments.UsageError("missing TO") }
            target = try layerNumber(extra, "TO")
        case "rename":
            break
        default:
            if let extra { throw ParsedArguments.UsageError("unexpected argument '\(extra)'") }
        }
        let name = verb == "rename" ? (extra ?? "") : ""
        if verb == "rename" {
            do {
                _ = try LayerName.optional(name)
            } catch {
                throw ParsedArguments.UsageError("NAME: \(error.description)")
            }
        }
        return try await KeymapTarget.with(context, device: values[1]) { keymapTarget in
            let keymap = keymapTarget.keymap
            let done: String
            switch (verb, target) {
            case ("add", _):
                try await keymap.addLayer(layer)
                done = "layer \(layer) added"
            case ("remove", _):
                try await keymap.removeLayer(layer)
                done = "layer \(layer) removed"
            case ("move", let to?):
                try await keymap.moveLayer(from: layer, to: to)
                done = "layer \(layer) moved to \(to)"
            case ("copy", let to?):
                try await keymap.copyLayer(from: layer, to: to)
                done = "layer \(layer) copied onto layer \(to)"
            default:
                try await keymap.renameLayer(layer, to: name)
                done = name.isEmpty ? "layer \(layer)'s name cleared" : "layer \(layer) named '\(name)'"
            }
            let state = try await keymap.state()
            let output = context.output
            if output.json {
                output.json(
                    .object([
                        ("ok", .bool(true)), ("layers", .integer(Int64(state.layers))),
                        ("layerNames", .array(state.layerNames.map { .string($0) })), ("dirty", .bool(state.dirty)),
                        ("canUndo", .bool(state.canUndo)),
                    ]))
            } else {
                output.line(
                    "\(keymapTarget.keyboard.alias): \(done); the draft has \(state.layers) layer(s) "
                        + "(0-\(max(state.layers - 1, 0))); 'kblink keymap undo' takes it back")
            }
            return .success
        }
    }
}
