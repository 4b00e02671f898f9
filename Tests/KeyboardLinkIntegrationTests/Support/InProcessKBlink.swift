import KeyboardLink
import KeyboardLinkTestSupport

/// `kblink`'s command line run in this process (`KBlinkCommand.run` with its output captured): what the binary
/// prints and its exit code, without starting a process. Standard input is empty and no signal is handled, so a
/// command that runs until Ctrl-C (`watch`, `scan` without a timeout, `osk-agent`) belongs in a test of the binary.
enum InProcessKBlink {
    /// Runs `kblink ARGUMENTS` with `environment` as its only environment variables.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async -> ProcessResult {
        let capture = CommandIO.Capture()
        let status = await KBlinkCommand.run(arguments, io: .capturing(into: capture, environment: environment))
        return ProcessResult(
            status: status.rawValue, standardOutput: capture.standardOutput, standardError: capture.standardError)
    }
}
