import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblinkd-demo` as a process on its own private bus, with a fresh state directory, and `kblink`'s commands run
/// against it in this process (``kblink(_:bus:)``) or as the real binary (``kblinkBinary(_:)``): what a new user
/// gets from `scripts/demo`.
struct DemoDaemon: Sendable {
    /// The private bus's address.
    let address: String
    /// The demo's process.
    let process: ChildProcess

    /// Stops the demo (SIGTERM): kblinkd leaves the bus, and the private bus goes with it.
    func stop() {
        process.signal(SIGTERM)
    }

    /// Starts the demo with `arguments` (such as `--studio-layers 2`), runs `body`, and stops the demo.
    static func run(
        _ arguments: [String] = [], _ body: @Sendable (DemoDaemon) async throws -> Void
    ) async throws {
        let slot = await DaemonSlots.shared.acquire()  // kblinkd-demo starts a private bus of its own
        defer { withExtendedLifetime(slot) {} }
        let state = NSTemporaryDirectory() + "kblink-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try ChildProcess(DaemonHarness.binary("kblinkd-demo"), ["--state-dir", state] + arguments)
        defer { daemon.signal(SIGKILL) }
        #expect(await eventually { daemon.standardOutput.contains("\n") }, "\(daemon.standardError)")
        let address = try #require(daemon.standardOutput.split(separator: "\n").first.map(String.init))
        let connection = try await BusConnection.connect(to: .address(address))
        let ready = try await eventually { try await connection.nameOwner(of: KBlink.service) != nil }
        await connection.close()
        try #require(ready, "kblinkd-demo did not take org.kblink1: \(daemon.standardError)")
        let demo = DemoDaemon(address: address, process: daemon)
        // The Aula F87's Studio firmware attaches once its GATT objects appear: wait for its driver.
        #expect(
            try await eventually {
                try await demo.kblink(["list", "--json"]).standardOutput.contains("\"driver\":\"zmk-studio\"")
            })
        // kblinkd-demo reads the connected Aula F87's keymap into its base before it is ready: it holds its owner's
        // keymap, not kblink's default. (The VGN 98Pro is asleep: its first push reads it.)
        #expect(
            try await eventually {
                try await demo.kblink(["keymap", "show", "aula", "--json"]).standardOutput.contains(
                    "\"baseOrigin\":\"keyboard\"")
            }, "the Aula F87's keymap was not read into the base: \(daemon.standardError)")
        try await body(demo)
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
    }

    /// Runs `kblink ARGUMENTS --bus ADDRESS` in this process.
    func kblink(_ arguments: [String], bus: Bool = true) async throws -> ProcessResult {
        await InProcessKBlink.run(arguments + (bus ? ["--bus", address] : []))
    }

    /// Runs the `kblink` binary with `ARGUMENTS --bus ADDRESS`.
    /// Both pipes are read to their end before it returns, however loaded the machine is.
    func kblinkBinary(_ arguments: [String]) async throws -> ProcessResult {
        try await KeymapCommandRunner.run(arguments + ["--bus", address])
    }

    /// Runs `kblink` expecting exit 0; returns standard output.
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await kblink(arguments)
        #expect(
            result.status == 0, "kblink \(arguments.joined(separator: " ")): \(result.standardError)",
            sourceLocation: sourceLocation)
        return result.standardOutput
    }

    /// Parses one JSON value printed by `kblink --json`.
    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }
}
