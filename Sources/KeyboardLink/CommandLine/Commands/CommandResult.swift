import KeyboardLinkSupport

/// What a command answers: a value that is both its `--json` form and its text.
///
/// The JSON is the value encoded by ``JSONTextEncoder`` (keys are the type's property names, camelCase, in
/// declaration order); the text is ``writeText(to:)``'s. A command builds the value and returns it; the table
/// (``Command/answering(name:summary:usageLine:details:flags:options:_:)``) writes it, so no command prints its
/// answer itself. Commands that stream (watch, scan, pair, push's progress, osk-agent, insets --watch) write their
/// events through the context's ``Output`` as they come, then answer like the others.
protocol CommandResult: Encodable, Sendable {
    /// Writes the text for people (lines, tables, colours as `output` allows).
    func writeText(to output: Output)
    /// Writes the JSON form: by default the value encoded by ``JSONTextEncoder``, on one line.
    func writeJSON(to output: Output) throws
    /// The exit status the result stands for.
    var exitStatus: ExitStatus { get }
}

extension CommandResult {
    var exitStatus: ExitStatus { .success }

    func writeJSON(to output: Output) throws {
        try output.json(encoding: self)
    }
}

extension Output {
    /// Writes `result` as JSON (one line) or as its text; answers its exit status.
    func write(_ result: some CommandResult) throws -> ExitStatus {
        if json {
            try result.writeJSON(to: self)
        } else {
            result.writeText(to: self)
        }
        return result.exitStatus
    }
}

extension Command {
    /// A command whose `run` answers a ``CommandResult``, written as text or JSON by the table.
    static func answering<Result: CommandResult>(
        name: String, summary: String, usageLine: String, details: String, flags: Set<String> = [],
        options: Set<String> = [], _ run: @escaping @Sendable (CommandContext) async throws -> Result
    ) -> Command {
        Command(
            name: name, summary: summary, usageLine: usageLine, details: details, flags: flags, options: options
        ) { context in
            try context.output.write(try await run(context))
        }
    }
}
