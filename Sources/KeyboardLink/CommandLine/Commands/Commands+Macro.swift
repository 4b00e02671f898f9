import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    static let macro = Command(
        name: "macro", summary: "Define, list, remove and record a keyboard's macros (staged in the draft)",
        usageLine: """
            Usage: kblink macro set DEVICE NAME DEFINITION [--json]
                   kblink macro list DEVICE [--json]
                   kblink macro remove DEVICE NAME [--json]
                   kblink macro record DEVICE NAME --events FILE [--json]
            """,
        details: """
            NAME: 1 to 32 of A-Z a-z 0-9 _ -. DEFINITION: steps separated by commas, for example
              "ctrl+c, delay 50, text 'hello', tap enter, press shift, release shift"
            (a chord or 'tap' chord, 'press' key, 'release' key, 'delay' 0-10000 ms, 'text' '...').
            Bind a macro to a key with 'kblink keymap set DEVICE KEY "MACRO(NAME)"'; a bound macro cannot be
            removed. record reads FILE, key events recorded from /dev/input/eventN (struct input_event records,
            for example 'cat /dev/input/event3 > keys.bin'), and defines the macro they type.
            JSON: list gives {name: definition}; the others {ok, name, definition}. Macro text needs the polkit
            action org.kblink1.read-macros (active local sessions have it); without it, list shows the names
            and null for each text.
            """,
        options: ["--events"]
    ) { context in
        let (subcommand, values) = try KeymapOptions.subcommand(
            context.arguments,
            [
                "set": ["DEVICE", "NAME", "DEFINITION"], "list": ["DEVICE"], "remove": ["DEVICE", "NAME"],
                "record": ["DEVICE", "NAME"],
            ])
        let eventsFile = context.arguments.value("--events")
        if subcommand == "record", eventsFile == nil {
            throw ParsedArguments.UsageError("macro record needs --events FILE")
        }
        if subcommand != "record", eventsFile != nil {
            throw ParsedArguments.UsageError("--events is for 'macro record'")
        }
        // Read and check the recording before talking to kblinkd, so a bad file fails fast.
        var recorded: (definition: String, ignored: [UInt16])?
        if let eventsFile {
            recorded = try record(eventsFile, standardInput: context.output.io.standardInput)
        }
        return try await KeymapTarget.with(context, device: values[0]) { target in
            let output = context.output
            switch subcommand {
            case "list":
                let macros: [String: String]
                do {
                    macros = try await target.keymap.macros()
                } catch let error as KBlinkError where error.code == .notAuthorized {
                    // Names are public; the text needs org.kblink1.read-macros.
                    let names = try await target.keymap.macroNames()
                    if output.json {
                        output.json(.object(names.map { ($0, .null) }))
                    } else {
                        output.table(["NAME", "DEFINITION"], names.map { [$0, "(withheld)"] })
                        output.error("macro text withheld: \(error.message)")
                    }
                    return .success
                }
                if output.json {
                    output.json(.object(macros.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
                } else if macros.isEmpty {
                    output.line("\(target.keyboard.alias): no macros")
                } else {
                    output.table(["NAME", "DEFINITION"], macros.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
                }
                return .success
            case "remove":
                try await target.keymap.removeMacro(name: values[1])
                if output.json {
                    output.json(.object([("ok", .bool(true)), ("name", .string(values[1]))]))
                } else {
                    output.line("\(target.keyboard.alias): macro \(values[1]) removed (staged in the draft)")
                }
                return .success
            default:
                let definition = recorded?.definition ?? values[2]
                try await target.keymap.setMacro(name: values[1], definition: definition)
                // The text as kblinkd normalised it, when this caller may read it back.
                let stored = (try? await target.keymap.macros())?[values[1]] ?? definition
                if output.json {
                    output.json(
                        .object([("ok", .bool(true)), ("name", .string(values[1])), ("definition", .string(stored))]))
                } else {
                    output.line("\(target.keyboard.alias): macro \(values[1]) = \(stored) (staged in the draft)")
                    if let ignored = recorded?.ignored, !ignored.isEmpty {
                        output.line(
                            "  left out keys kblink cannot send (evdev codes \(ignored.map(String.init).joined(separator: ", ")))"
                        )
                    }
                }
                return .success
            }
        }
    }

    /// The macro recorded in an input-event file, as definition text, and the key codes left out.
    static func record(_ path: String, standardInput: Int32) throws -> (definition: String, ignored: [UInt16]) {
        let bytes = try LocalFile.read(
            path, limit: EvdevEvent.maximumCount * EvdevEvent.size, what: "an input event recording",
            standardInput: standardInput)
        var recorder = MacroRecorder()
        do {
            try recorder.feed(bytes: bytes)
            return (try recorder.macro().description, recorder.ignoredCodes)
        } catch {
            throw LocalFile.Failure(description: "\(path): \(error.description)")
        }
    }
}
