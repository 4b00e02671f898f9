import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    /// The largest profile file `profile import` reads (what kblinkd accepts).
    static let profileSizeLimit = 16 << 20

    static let profile = Command(
        name: "profile", summary: "Export or import a keyboard's profile (bindings and macros as JSON)",
        usageLine: """
            Usage: kblink profile export DEVICE [FILE] [--json]
                   kblink profile import DEVICE FILE [--replace] [--json]
            """,
        details: """
            export writes the draft (every layer's bindings and the macros) as profile JSON to FILE, or prints it
            without FILE or with '-' for standard output. FILE is replaced atomically and keeps its mode.
            import stages a profile read from FILE ('-' for standard input, at most 16 MiB) as one edit: undo
            takes it back. The profile must be for the keyboard's layout. It is merged: the keys, layers and
            macros it names are set, everything it leaves out stays as it is. --replace replaces everything
            instead: keys it leaves out are cleared (nothing on layer 0, transparent above) and macros it does
            not define are removed; the answer says how many keys that cleared. Either way every change is listed.
            JSON: export to standard output prints the profile itself; export to a file {ok, file}; import
            {ok, file, replaced, cleared, changes [{layer, key, old, new}], macros [{name, old, new}]}.
            """,
        flags: ["--replace"]
    ) { context in
        let (subcommand, values) = try KeymapOptions.subcommand(
            context.arguments, ["export": ["DEVICE"], "import": ["DEVICE", "FILE"]], optional: ["export": ["FILE"]])
        if subcommand != "import", context.arguments.has("--replace") {
            throw ParsedArguments.UsageError("--replace is for 'profile import'")
        }
        // Read the file before talking to kblinkd, so a missing or oversized file fails fast.
        let imported =
            subcommand == "import"
            ? try LocalFile.readText(
                values[1], limit: profileSizeLimit, what: "a profile", standardInput: context.output.io.standardInput)
            : nil
        return try await KeymapTarget.with(context, device: values[0]) { target in
            let output = context.output
            if let imported {
                let result = try await target.keymap.importProfile(
                    imported, replace: context.arguments.has("--replace"))
                return try output.write(
                    ProfileImportResult(result, file: values[1], alias: target.keyboard.alias))
            }
            let json = try await target.keymap.exportProfile()
            // '-' is standard output, as it is standard input for import.
            guard values.count > 1, values[1] != "-" else {
                output.line(json.hasSuffix("\n") ? String(json.dropLast()) : json)
                return .success
            }
            try LocalFile.write(json, to: values[1])
            return try output.write(ProfileWrittenResult(file: values[1], alias: target.keyboard.alias))
        }
    }
}

/// `kblink profile export DEVICE FILE`: where the profile went.
struct ProfileWrittenResult: CommandResult {
    let ok = true
    let file: String
    /// Text only.
    private let alias: String

    private enum CodingKeys: String, CodingKey { case ok, file }

    init(file: String, alias: String) {
        self.file = file
        self.alias = alias
    }

    func writeText(to output: Output) {
        output.line("\(alias): profile written to \(file)")
    }
}

/// What an import changed in the draft, listed (`kblink profile import`).
struct ProfileImportResult: CommandResult {
    /// One binding changed.
    struct Change: Encodable, Sendable {
        let layer: Int
        let key: String
        let old: String
        let new: String
    }

    /// One macro added, changed or removed (an empty text for absent).
    struct MacroChange: Encodable, Sendable {
        let name: String
        let old: String
        let new: String
    }

    let ok = true
    let file: String
    let replaced: Bool
    let cleared: Int
    let changes: [Change]
    let macros: [MacroChange]
    /// Text only.
    private let alias: String

    private enum CodingKeys: String, CodingKey { case ok, file, replaced, cleared, changes, macros }

    init(_ report: ProfileImportReport, file: String, alias: String) {
        self.file = file
        replaced = report.replaced
        cleared = report.cleared
        changes = report.changes.map { Change(layer: $0.layer, key: $0.key, old: $0.old, new: $0.new) }
        macros = report.macros.map { MacroChange(name: $0.name, old: $0.old, new: $0.new) }
        self.alias = alias
    }

    func writeText(to output: Output) {
        let how = replaced ? "replaced the draft" : "merged into the draft"
        var counts = "\(changes.count) key binding(s) and \(macros.count) macro(s) changed"
        if replaced { counts += ", \(cleared) key(s) cleared because the profile leaves them out" }
        output.line("\(alias): profile \(file) \(how): \(counts)")
        if !changes.isEmpty {
            output.table(["LAYER", "KEY", "OLD", "NEW"], changes.map { [String($0.layer), $0.key, $0.old, $0.new] })
        }
        for macro in macros {
            let change =
                macro.old.isEmpty
                ? "added: \(macro.new)"
                : macro.new.isEmpty ? "removed (was \(macro.old))" : "\(macro.old) -> \(macro.new)"
            output.line("macro \(macro.name) \(change)")
        }
        if !changes.isEmpty || !macros.isEmpty {
            output.line("'kblink keymap diff' shows the draft, 'kblink keymap undo' takes the import back.")
        }
    }
}
