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

/// What a command runs with.
struct CommandContext: Sendable {
    let bus: BusAddress
    let arguments: ParsedArguments
    let output: Output

    /// Connects to kblinkd. When a person is at the terminal (standard input is one), calls allow polkit to ask
    /// them for a password (`ALLOW_INTERACTIVE_AUTHORIZATION`), through polkit's text agent when the session has no
    /// other (``PolkitTextAgent``); from a script, a call polkit would ask about fails at once with what to do.
    func client() async throws -> KBlinkClient {
        let client = try await KBlinkClient.connect(to: bus)
        let atTerminal = output.io.inputIsTerminal
        client.connection.allowsInteractiveAuthorization = atTerminal
        // polkit lives on the system bus; a text console or SSH session has no agent to ask the password with.
        if atTerminal && bus == .system { PolkitTextAgent.start() }
        return client
    }
}

/// One `kblink` command.
struct Command: Sendable {
    let name: String
    let summary: String
    let usageLine: String
    let details: String
    var flags: Set<String> = []
    var options: Set<String> = []
    let run: @Sendable (CommandContext) async throws -> ExitStatus

    var help: String {
        "\(usageLine)\n\n\(summary)\n" + (details.isEmpty ? "" : "\n\(details)\n") + "\n" + Help.commonOptions
    }

    /// The help of one subcommand (`kblink keymap set --help`): its usage lines and its paragraph of the details;
    /// the whole help when the command has no such subcommand.
    func help(forSubcommand subcommand: String) -> String {
        let usage = usageLine.split(separator: "\n").filter { line in
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(of: Substring(name)), index + 1 < words.count else { return false }
            return words[index + 1].split(separator: "|").contains(Substring(subcommand))
        }
        guard !usage.isEmpty else { return help }
        // Every subcommand the usage lines name: a line of the details starting with one starts its paragraph.
        var subcommands = Set<Substring>()
        for line in usageLine.split(separator: "\n") {
            let words = line.split(separator: " ")
            if let index = words.firstIndex(of: Substring(name)), index + 1 < words.count {
                subcommands.formUnion(words[index + 1].split(separator: "|"))
            }
        }
        var paragraph: [Substring] = []
        var inside = false
        for line in details.split(separator: "\n", omittingEmptySubsequences: false) {
            let first = line.split(separator: " ").first ?? ""
            if !(line.first?.isWhitespace ?? true), subcommands.contains(first) {
                inside = first == Substring(subcommand)
            }
            if inside { paragraph.append(line) }
        }
        let text = usage.enumerated().map { index, line in
            let trimmed = line.drop(while: { $0 == " " })
            return index == 0 && !trimmed.hasPrefix("Usage:") ? "Usage: " + trimmed : String(line)
        }.joined(separator: "\n")
        return text + "\n" + (paragraph.isEmpty ? "" : "\n" + paragraph.joined(separator: "\n") + "\n") + "\n"
            + Help.commonOptions
    }
}

enum Help {
    static let commonOptions = """
        Options for every command (before or after it):
          --bus system|session|ADDRESS   the bus kblinkd is on (default: $KBLINK_BUS, else system)
          --json                         machine-readable output (one JSON value, or JSON lines for streams)
          --no-color                     no colours (also NO_COLOR=1, or when not a terminal)
          -h, --help                     this help ('kblink COMMAND SUBCOMMAND --help' for one subcommand)
          -V, --version                  kblink's version
        Exit codes: 0 ok, 1 failure, 2 usage, 3 kblinkd or the bus unreachable, 4 not found.
        """

    static var overview: String {
        var text =
            "kblink \(KBlink.version): \(title)\n\n\(usage)\n\nCommands:\n"
        for command in Commands.all {
            text += "  " + command.name.padding(to: 12) + command.summary + "\n"
        }
        text += "\n\(description)\n\n" + commonOptions
        return text
    }

    /// What kblink is, in a line (the man page's NAME).
    static let title = "the companion for Bluetooth keyboards (talks to kblinkd)"
    /// The overview's usage line.
    static let usage = "Usage: kblink [OPTIONS] COMMAND [ARGS] [OPTIONS]"
    /// What the overview says after the list of commands.
    static let description = """
        DEVICE is a keyboard's address (AA:BB:CC:DD:EE:FF) or the start of its name.
        Run 'kblink COMMAND --help' for a command's options.
        """
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// Runs `body` until it ends or the user presses Ctrl-C (when `io` handles signals); returns true when interrupted.
func untilInterrupted(_ io: CommandIO, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    guard io.handlesSignals else {
        try await body()
        return false
    }
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let interrupted = AsyncStream<Void>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { interrupted.continuation.yield() }
        source.resume()
        return source
    }
    defer { for source in sources { source.cancel() } }
    return try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await body()
            return false
        }
        group.addTask {
            for await _ in interrupted.stream { return true }
            return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
    }
}
