import KeyboardLinkSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The world a command runs in: where its output goes, where answers come from, the environment, and what stops a
/// command that runs until interrupted. `kblink` runs with ``process`` (its standard streams, environment and
/// Ctrl-C); an in-process caller, such as a test, gives buffers (``capturing(environment:)``) and no signals.
package struct CommandIO: Sendable {
    /// Writes bytes to standard output.
    package var writeOutput: @Sendable ([UInt8]) -> Void
    /// Writes bytes to standard error.
    package var writeError: @Sendable ([UInt8]) -> Void
    /// Reads a line of standard input (nil at its end).
    package var readLine: @Sendable () -> String?
    /// The descriptor of standard input, for files named `-`; -1 when there is none.
    package var standardInput: Int32
    /// Whether standard output is a terminal (colours, live drawing).
    package var outputIsTerminal: Bool
    /// Whether standard input is a terminal (a person who can answer polkit's questions).
    package var inputIsTerminal: Bool
    /// The terminal's width in columns; 0 when unknown.
    package var terminalColumns: @Sendable () -> Int
    /// An environment variable's value (nil when unset or empty).
    package var environment: @Sendable (String) -> String?
    /// Whether SIGINT and SIGTERM interrupt a command that runs until interrupted (`watch`, `scan`, `pair`...).
    /// Without them such a command runs until it ends by itself or its task is cancelled.
    package var handlesSignals: Bool

    /// Everything given.
    package init(
        writeOutput: @escaping @Sendable ([UInt8]) -> Void, writeError: @escaping @Sendable ([UInt8]) -> Void,
        readLine: @escaping @Sendable () -> String? = { nil }, standardInput: Int32 = -1,
        outputIsTerminal: Bool = false,
        inputIsTerminal: Bool = false, terminalColumns: @escaping @Sendable () -> Int = { 0 },
        environment: @escaping @Sendable (String) -> String? = { _ in nil }, handlesSignals: Bool = false
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.readLine = readLine
        self.standardInput = standardInput
        self.outputIsTerminal = outputIsTerminal
        self.inputIsTerminal = inputIsTerminal
        self.terminalColumns = terminalColumns
        self.environment = environment
        self.handlesSignals = handlesSignals
    }

    /// The process's: standard output, error and input, its environment, and SIGINT/SIGTERM.
    package static var process: CommandIO {
        CommandIO(
            writeOutput: { FileDescriptorOutput.writeAll($0, to: STDOUT_FILENO) },
            writeError: { FileDescriptorOutput.writeAll($0, to: STDERR_FILENO) },
            readLine: { Swift.readLine() },
            standardInput: STDIN_FILENO,
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            inputIsTerminal: isatty(STDIN_FILENO) == 1,
            terminalColumns: {
                var size = winsize()
                if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
                if let text = getenv("COLUMNS"), let columns = Int(String(cString: text)), columns > 0 {
                    return columns
                }
                return 0
            },
            environment: { name in
                guard let value = getenv(name) else { return nil }
                let text = String(cString: value)
                return text.isEmpty ? nil : text
            },
            handlesSignals: true)
    }

    /// Output collected in memory: what a command wrote to standard output and standard error.
    package final class Capture: Sendable {
        private let output = Mutex<[UInt8]>([])
        private let error = Mutex<[UInt8]>([])

        /// An empty capture.
        package init() {}

        /// Standard output so far, as text.
        package var standardOutput: String { output.withLock { String(decoding: $0, as: UTF8.self) } }
        /// Standard error so far, as text.
        package var standardError: String { error.withLock { String(decoding: $0, as: UTF8.self) } }

        fileprivate func appendOutput(_ bytes: [UInt8]) { output.withLock { $0.append(contentsOf: bytes) } }
        fileprivate func appendError(_ bytes: [UInt8]) { error.withLock { $0.append(contentsOf: bytes) } }
    }

    /// Output into `capture`, no input, no terminal, `environment`'s variables only, no signals handled.
    package static func capturing(into capture: Capture, environment: [String: String] = [:]) -> CommandIO {
        CommandIO(
            writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
            environment: { name in environment[name].flatMap { $0.isEmpty ? nil : $0 } })
    }
}
