import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkKeymapFiles
import KeyboardLinkSupport

/// `kblink keymap export` and `kblink keymap import`: the draft (or the keyboard) as a ZMK `.keymap`, a QMK
/// `keymap.json`, a Vial `.vil` or keymap-drawer YAML, and those files (but keymap-drawer's) into the draft.
///
/// Files are parsed here, in the CLI, never in kblinkd: a hostile file meets this process only, and kblinkd gets
/// the structured profile its `ImportProfile` validates again (docs/keymap-files.md).
enum KeymapFileCommands {
    /// The options these subcommands take.
    static let flags: Set<String> = ["--keyboard", "--replace"]
    static let options: Set<String> = ["--format"]

    /// `--format F`, nil when not given.
    static func format(_ arguments: ParsedArguments, reading: Bool) throws -> KeymapFileFormat? {
        guard let text = arguments.value("--format") else { return nil }
        guard let format = KeymapFileFormat(rawValue: text.lowercased()) else {
            throw ParsedArguments.UsageError(
                "--format expects \(KeymapFileFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(text)'")
        }
        if reading && !format.isReadable {
            throw ParsedArguments.UsageError("kblink writes keymap-drawer YAML but does not read it: it holds legends")
        }
        return format
    }

    /// Checks that the options of export and import are given to them only.
    static func checkOptions(_ subcommand: String, _ arguments: ParsedArguments) throws {
        if subcommand != "export" && subcommand != "import" && arguments.value("--format") != nil {
            throw ParsedArguments.UsageError("--format is for 'keymap export' and 'keymap import'")
        }
        if subcommand != "export" && arguments.has("--keyboard") {
            throw ParsedArguments.UsageError("--keyboard is for 'keymap export'")
        }
        if subcommand != "import" && arguments.has("--replace") {
            throw ParsedArguments.UsageError("--replace is for 'keymap import'")
        }
    }

    /// The keyboard's physical layout: the built-in one of its id, or the one `kblink layout add` taught kblinkd
    /// (`GetLayout`), else one made from kblinkd's key geometry (in reading order, matrix positions unknown:
    /// numbered by reading order).
    static func physicalLayout(_ target: KeymapTarget) async throws -> (PhysicalLayout, matrixKnown: Bool) {
        if let layout = try? PhysicalLayout.builtIn(target.state.layout) { return (layout, true) }
        if let added = try? await target.client.manager.call(KBlinkContract.Manager.getLayout, target.state.layout),
            let layout = try? added.physicalLayout()
        {
            return (layout, true)
        }
        let geometry = try await target.keymap.keys()
        var keys: [PhysicalKey] = []
        for (index, key) in geometry.enumerated() {
            keys.append(
                PhysicalKey(
                    name: try KeyName(key.key), zone: (try? ZoneID(parsing: key.zone)) ?? .standard,
                    frame: KeyFrame(x: key.x, y: key.y, width: key.width, height: key.height),
                    matrix: MatrixPosition(row: index / 256, column: index % 256), defaultAction: .none))
        }
        return (try PhysicalLayout(id: try LayoutID(target.state.layout), name: target.state.layout, keys: keys), false)
    }

    /// `keymap export DEVICE --format F [FILE|-] [--keyboard]`.
    static func export(_ context: CommandContext, _ values: [String]) async throws -> ExitStatus {
        guard let format = try format(context.arguments, reading: false) else {
            throw ParsedArguments.UsageError(
                "keymap export needs --format \(KeymapFileFormat.allCases.map(\.rawValue).joined(separator: "|"))")
        }
        let path = values.count > 1 && values[1] != "-" ? values[1] : nil
        return try await KeymapTarget.with(context, device: values[0]) { target in
            let (layout, matrixKnown) = try await physicalLayout(target)
            if format == .vil && !matrixKnown {
                throw LocalFile.Failure(
                    description: "layout \(layout.id) has no switch matrix kblink knows: a .vil needs one")
            }
            var keymap = try ProfileDocument(json: try await target.keymap.exportProfile()).keymap
            if context.arguments.has("--keyboard") { keymap = try await keyboardKeymap(target, draft: keymap) }
            let layoutFile = path.map { layoutFilePath(for: $0) }
            let text: String
            do throws(KeymapFileError) {
                text = try KeymapFiles.write(
                    KeymapFileContent(keymap), as: format, layout: layout, keyboard: target.keyboard.alias,
                    layoutFile: format == .keymapDrawer ? layoutFile : nil)
            } catch {
                throw LocalFile.Failure(
                    description: "the keymap cannot be written as \(format.rawValue): \(error.reason)")
            }
            guard let path else {
                context.output.line(text.hasSuffix("\n") ? String(text.dropLast()) : text)
                return .success
            }
            var files = [path]
            try LocalFile.write(text, to: path)
            if format == .keymapDrawer, let layoutFile {
                try LocalFile.write(KeymapFiles.physicalLayoutJSON(layout), to: layoutFile)
                files.append(layoutFile)
            }
            return try context.output.write(
                KeymapExportResult(
                    alias: target.keyboard.alias, format: format.rawValue, files: files, layers: keymap.layerCount,
                    keys: layout.keys.count, source: context.arguments.has("--keyboard") ? "keyboard" : "draft"))
        }
    }

    /// The info.json keymap-drawer draws a keymap-drawer YAML at: beside it, `.info.json` for its extension.
    static func layoutFilePath(for path: String) -> String {
        var base = path
        for suffix in [".yaml", ".yml"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
        }
        return base + ".info.json"
    }

    /// What the keyboard holds: the draft, but where the push plan (read from the keyboard as `push --dry-run`)
    /// saw the keyboard hold something else.
    static func keyboardKeymap(_ target: KeymapTarget, draft: Keymap) async throws -> Keymap {
        guard target.keyboard.connected, ["zmk-studio", "via"].contains(target.keyboard.driver) else {
            throw LocalFile.Failure(
                description: "--keyboard reads the keyboard, and \(target.keyboard.alias) is not connected with a "
                    + "firmware kblink speaks (ZMK Studio or VIA)")
        }
        let plan = try await target.keymap.push(dryRun: true, unlockTimeout: 0, callTimeout: .seconds(10))
        var layers = draft.layers
        func set(_ layer: Int, _ key: String, _ text: String) throws {
            guard layers.indices.contains(layer) else { return }
            layers[layer][try KeyName(key)] = try KeyAction(parsing: text)
        }
        for change in plan.changes { try set(change.layer, change.key, change.old) }
        for row in plan.kept + plan.conflicts { try set(row.layer, row.key, row.keyboard) }
        return Keymap(layers: layers, macros: draft.macros)
    }

    /// `keymap import DEVICE FILE|- [--format F] [--replace]`.
    static func `import`(_ context: CommandContext, _ values: [String]) async throws -> ExitStatus {
        let given = try format(context.arguments, reading: true)
        let text = try LocalFile.readText(
            values[1], limit: KeymapFiles.maximumFileSize, what: "a keymap file",
            standardInput: context.output.io.standardInput)
        guard let format = given ?? KeymapFileFormat.guess(from: text[...]) else {
            throw ParsedArguments.UsageError(
                "cannot tell the format of \(values[1]); give --format zmk, qmk or vil")
        }
        return try await KeymapTarget.with(context, device: values[0]) { target in
            let (layout, matrixKnown) = try await physicalLayout(target)
            if format == .vil && !matrixKnown {
                throw LocalFile.Failure(
                    description: "layout \(layout.id) has no switch matrix kblink knows: a .vil needs one")
            }
            let macroNames = try await target.keymap.macroNames().map { try MacroName($0) }
            let content: KeymapFileContent
            do throws(KeymapFileError) {
                content = try KeymapFiles.read(text, as: format, layout: layout, macroNames: macroNames)
            } catch {
                throw LocalFile.Failure(description: "\(values[1]): \(error)")
            }
            let document = ProfileDocument(layout: layout.id, keymap: content.keymap)
            let result = try await target.keymap.importProfile(
                String(decoding: document.json(), as: UTF8.self), replace: context.arguments.has("--replace"))
            return try context.output.write(
                ProfileImportResult(result, file: values[1], alias: target.keyboard.alias))
        }
    }
}

/// What `keymap export` to a file answers.
struct KeymapExportResult: CommandResult {
    /// The keyboard.
    var alias: String
    /// The format written.
    var format: String
    /// The files written: the keymap, and for keymap-drawer the layout's info.json beside it.
    var files: [String]
    /// Layers written.
    var layers: Int
    /// Keys per layer.
    var keys: Int
    /// `draft` or `keyboard`.
    var source: String
    var ok = true

    func writeText(to output: Output) {
        output.line(
            "\(alias): the \(source)'s \(layers) layer(s) of \(keys) keys written as \(format) to "
                + files.joined(separator: " and "))
    }
}
