import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The keyboard a `keymap`, `macro` or `profile` command works on: the client, the keyboard and its keymap.
struct KeymapTarget: Sendable {
    let client: KBlinkClient
    let keyboard: KeyboardInfo
    let keymap: KeymapClient
    /// The keymap's properties when the command started.
    let state: KeymapState

    /// Connects, finds the keyboard and checks that it has a keymap.
    /// - Throws: `KBlinkClient.Failure`, or `org.kblink1.Error.NotSupported` when the keyboard has no keymap.
    static func open(_ context: CommandContext, device: String) async throws -> KeymapTarget {
        let client = try await context.client()
        do {
            let keyboard = try await client.keyboard(matching: device)
            let keymap = KeymapClient(client: client, keyboard: keyboard)
            let state: KeymapState
            do {
                state = try await keymap.state()
            } catch let error as DBusError where error.name == .unknownInterface {
                // kblinkd keeps keymaps for paired keyboards only.
                guard keyboard.paired else {
                    throw KBlinkError.notSupported(
                        "\(keyboard.forDisplay.alias) has no keymap: it is not paired; pair it first with "
                            + "'kblink pair \(keyboard.address)'")
                }
                throw KBlinkError.notSupported(
                    "\(keyboard.forDisplay.alias) has no keymap: kblinkd does not know its layout")
            }
            // The target's keyboard is for messages: its name as the device chose it, escaped for the terminal.
            return KeymapTarget(client: client, keyboard: keyboard.forDisplay, keymap: keymap, state: state)
        } catch {
            await client.close()
            throw error
        }
    }

    /// Closes the connection.
    func close() async {
        await client.close()
    }

    /// Runs `body` with the target, closing it afterwards.
    static func with(
        _ context: CommandContext, device: String, _ body: (KeymapTarget) async throws -> ExitStatus
    ) async throws -> ExitStatus {
        let target = try await open(context, device: device)
        do {
            let status = try await body(target)
            await target.close()
            return status
        } catch {
            await target.close()
            throw error
        }
    }
}

/// The `--layer` and `--zone` options of the keymap commands.
enum KeymapOptions {
    /// `--layer N`: 0 to 31, default 0.
    /// - Throws: `ParsedArguments.UsageError`.
    static func layer(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value("--layer") else { return 0 }
        guard let layer = Int(text), (0..<Keymap.maximumLayers).contains(layer) else {
            throw ParsedArguments.UsageError(
                "--layer expects a layer number from 0 to \(Keymap.maximumLayers - 1); got '\(text)'")
        }
        return layer
    }

    /// `--zone Z` in canonical spelling (`nav` is `navigation`); nil when not given.
    /// - Throws: `ParsedArguments.UsageError` for a name that is no zone.
    static func zone(_ arguments: ParsedArguments) throws -> String? {
        guard let text = arguments.value("--zone") else { return nil }
        do {
            return try ZoneID(parsing: text).rawValue
        } catch {
            throw ParsedArguments.UsageError(error.description)
        }
    }

    /// The subcommand (the first positional) and the other positionals, checked against the expected names.
    /// - Throws: `ParsedArguments.UsageError` naming what is missing or extra.
    static func subcommand(
        _ arguments: ParsedArguments, _ expected: [String: [String]], optional: [String: [String]] = [:]
    ) throws -> (name: String, values: [String]) {
        guard let name = arguments.positionals.first else {
            throw ParsedArguments.UsageError(
                "missing the subcommand: \(expected.keys.sorted().joined(separator: ", "))")
        }
        guard let names = expected[name] else {
            let hint = NearestName.nearest(to: name, in: expected.keys.sorted()).map { "did you mean '\($0)'? " }
            throw ParsedArguments.UsageError(
                "unknown subcommand '\(name)'; " + (hint ?? "")
                    + "use \(expected.keys.sorted().joined(separator: ", "))")
        }
        let values = Array(arguments.positionals.dropFirst())
        let extra = optional[name] ?? []
        guard values.count >= names.count else { throw ParsedArguments.UsageError("missing \(names[values.count])") }
        guard values.count <= names.count + extra.count else {
            throw ParsedArguments.UsageError("unexpected argument '\(values[names.count + extra.count])'")
        }
        for (index, argument) in names.enumerated() where argument == "DEVICE" {
            _ = try DeviceArgument.checked(values[index])
        }
        return (name, values)
    }
}
