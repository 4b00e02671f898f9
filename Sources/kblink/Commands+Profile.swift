import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkCommandLine
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    /// The largest profile file `profile import` reads (what kblinkd accepts).
    static let profileSizeLimit = 16 << 20

    static let profile = Command(
        name: "profile", summary: "Export or import a keyboard's profile (bindings and macros as JSON)",
        usageLine: """
            Usage: kblink profile export DEVICE [FILE] [--json]
                   kblink profile import DEVICE FILE [--json]
            """,
        details: """
            export writes the draft (every layer's bindings and the macros) as profile JSON to FILE, or prints it
            without FILE or with '-' for standard output. FILE is replaced atomically and keeps its mode.
            import stages a profile read from FILE ('-' for standard input, at most 16 MiB) as one edit: undo
            takes it back. The profile must be for the keyboard's layout.
            JSON: export to standard output prints the profile itself; otherwise {ok, file}.
            """
    ) { context in
        let (subcommand, values) = try KeymapOptions.subcommand(
            context.arguments, ["export": ["DEVICE"], "import": ["DEVICE", "FILE"]], optional: ["export": ["FILE"]])
        // Read the file before talking to kblinkd, so a missing or oversized file fails fast.
        let imported =
            subcommand == "import"
            ? try LocalFile.readText(values[1], limit: profileSizeLimit, what: "a profile") : nil
        return try await KeymapTarget.with(context, device: values[0]) { target in
            let output = context.output
            if let imported {
                try await target.keymap.importProfile(imported)
                if output.json {
                    output.json(.object([("ok", .bool(true)), ("file", .string(values[1]))]))
                } else {
                    output.line(
                        "\(target.keyboard.alias): profile \(values[1]) imported into the draft "
                            + "('kblink keymap diff' shows it, 'kblink keymap undo' takes it back)")
                }
                return .success
            }
            let json = try await target.keymap.exportProfile()
            // '-' is standard output, as it is standard input for import.
            guard values.count > 1, values[1] != "-" else {
                output.line(json.hasSuffix("\n") ? String(json.dropLast()) : json)
                return .success
            }
            try LocalFile.write(json, to: values[1])
            if output.json {
                output.json(.object([("ok", .bool(true)), ("file", .string(values[1]))]))
            } else {
                output.line("\(target.keyboard.alias): profile written to \(values[1])")
            }
            return .success
        }
    }
}
