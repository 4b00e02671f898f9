import Dispatch
import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The `kblink` command line: global options, then a command and its arguments. `kblink`'s `main` is a call of
/// ``run(_:)``.
package enum KBlinkCommand {
    /// Answers `--version` and `--help` given before any command, which need neither kblinkd nor Swift's
    /// concurrency (so `kblink --version` starts no thread); nil for every other command line, which ``run(_:io:)``
    /// runs.
    package static func answerAtOnce(_ arguments: [String], io: CommandIO = .process) -> ExitStatus? {
        for argument in arguments {
            switch argument {
            case "--json", "--no-color": continue
            case "--version", "-V":
                io.writeOutput(Array("kblink \(KBlink.version)\n".utf8))
                return .success
            case "--help", "-h":
                io.writeOutput(Array((Help.overview + "\n").utf8))
                return .success
            default: return nil
            }
        }
        return nil
    }

    /// Runs the command line `arguments` (without the program's name) in `io` and answers its exit status.
    package static func run(_ arguments: [String], io: CommandIO = .process) async -> ExitStatus {
        // --json anywhere before `--` also makes usage errors JSON, even those found before the command's
        // arguments are parsed.
        let wantsJSON = arguments.prefix { $0 != "--" }.contains("--json")
        func usage(_ message: String) -> ExitStatus { KBlinkCommand.usage(message, json: wantsJSON, io: io) }
        func print(_ text: String) { io.writeOutput(Array((text + "\n").utf8)) }
        var rest = arguments
        var busText = io.environment("KBLINK_BUS")
        // Global options may come before the command as well as after it: those before it are carried over to the
        // command's own arguments (which take them too).
        var carried: [String] = []
        while let first = rest.first, first.hasPrefix("-"), first != "-", first != "--" {
            switch first {
            case "--version", "-V":
                print("kblink \(KBlink.version)")
                return .success
            case "--help", "-h":
                print(Help.overview)
                return .success
            case "--json", "--no-color":
                carried.append(first)
                rest.removeFirst()
            default:
                if first.hasPrefix("--bus=") {
                    busText = String(first.dropFirst("--bus=".count))
                    rest.removeFirst()
                } else if first == "--bus" {
                    guard rest.count >= 2 else {
                        return usage("--bus needs a value: system, session or a D-Bus address")
                    }
                    busText = rest[1]
                    rest.removeFirst(2)
                } else {
                    let global = ["--bus", "--json", "--no-color", "--help", "--version", "-V", "-h"]
                    let hint = NearestName.nearest(to: first, in: global).map { "; did you mean \($0)?" } ?? ""
                    return usage(
                        "unknown option \(first)\(hint) (before the command, kblink takes --bus, --json, --no-color, "
                            + "--help and --version)")
                }
            }
        }
        guard let name = rest.first else {
            print(Help.overview)
            return .usage
        }
        // Hidden: kblink(1) from the command table (scripts/manpage, the package).
        if name == "_manpage" {
            io.writeOutput(Array(ManPage.kblink(sourceDateEpoch: io.environment("SOURCE_DATE_EPOCH")).utf8))
            return .success
        }
        guard let command = Commands.all.first(where: { $0.name == name }) else {
            if name == "help" {
                if rest.count > 1, let topic = Commands.all.first(where: { $0.name == rest[1] }) {
                    print(rest.count > 2 ? topic.help(forSubcommand: rest[2]) : topic.help)
                } else {
                    print(Help.overview)
                }
                return .success
            }
            let hint = NearestName.nearest(to: name, in: Commands.all.map(\.name) + ["help"]).map {
                "did you mean '\($0)'? "
            }
            return usage("unknown command '\(name)'; " + (hint ?? "") + "run 'kblink --help' for the list")
        }
        rest.insert(contentsOf: carried, at: 1)
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                Array(rest.dropFirst()), flags: command.flags.union(["--help", "--json", "--no-color"]),
                options: command.options.union(["--bus"]))
        } catch {
            return usage("\(error)\n\(command.usageLine)")
        }
        if parsed.has("--help") {
            print(parsed.positionals.first.map(command.help(forSubcommand:)) ?? command.help)
            return .success
        }
        if let bus = parsed.value("--bus") { busText = bus }
        let bus: BusAddress
        do {
            bus = try BusAddress(parsing: busText ?? "system")
        } catch let error as DBusError {
            return usage(error.message)
        } catch {
            return usage("\(error)")
        }
        let output = Output(json: parsed.has("--json"), color: !parsed.has("--no-color"), io: io)
        let context = CommandContext(bus: bus, arguments: parsed, output: output)
        do {
            return try await command.run(context)
        } catch let error as ParsedArguments.UsageError {
            return usage("\(error.message)\n\(command.usageLine)")
        } catch let failure as KBlinkClient.Failure {
            output.error(failure.description)
            switch failure {
            case .busUnreachable, .daemonNotRunning: return .daemonUnreachable
            case .notFound: return .notFound
            case .ambiguous: return .usage
            }
        } catch let error as KBlinkError {
            output.error(error.message.isEmpty ? error.code.errorName.rawValue : error.message)
            switch error.code {
            case .notFound: return .notFound
            case .invalidArgs: return .usage
            default: return .failure
            }
        } catch let error as DBusError {
            output.error(error.message.isEmpty ? error.name.rawValue : error.message)
            switch error.name {
            case .unknownObject: return .notFound
            case .serviceUnknown, .nameHasNoOwner, .disconnected, .noReply: return .daemonUnreachable
            default: return .failure
            }
        } catch {
            output.error("\(error)")
            return .failure
        }
    }

    /// Reports a usage error on standard error (`{"error": ...}` with `json`) and gives exit code 2.
    static func usage(_ message: String, json: Bool, io: CommandIO) -> ExitStatus {
        Output(json: json, color: false, io: io).error(message)
        return .usage
    }
}
