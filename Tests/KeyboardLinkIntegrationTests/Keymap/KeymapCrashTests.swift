import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// Issue 7's acceptance: `kill -9` of the real `kblinkd` in the middle of a stream of edits loses none that was
/// acknowledged.
@Suite("kblinkd killed with SIGKILL keeps every acknowledged edit")
struct KeymapCrashTests {
    /// One edit of the stream.
    struct Edit: Sendable, Hashable {
        var layer: Int
        var key: String
        var action: String
    }

    /// How far the stream of edits got, and the error that stopped it.
    struct StreamProgress: Sendable, Equatable {
        var edits: Int
        var stoppedBy: String?
    }

    @Test(
        "SIGKILL right after an acknowledged SetBinding, restart with the same state directory", arguments: [37, 101])
    func killNine(killAfter: Int) async throws {
        let bus = try await TestBus()
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/kblinkd.conf"
        try "[General]\nLogLevel = info\n".write(toFile: config, atomically: true, encoding: .utf8)
        let arguments = ["--bus", bus.address, "--state-dir", directory, "--config", config]

        let first = try ChildProcess(DaemonHarness.binary("kblinkd-demo"), arguments)
        defer { first.signal(SIGKILL) }
        let connection = try await bus.connect()
        let keymap = KeymapClient(connection: connection, path: KBlink.keyboardPath(KeymapFixture.aula))
        #expect(await Self.ready(keymap), "kblinkd did not start: \(first.standardError)")

        // Every standard key on every layer, once each, to an action none of them has: each acknowledged edit
        // can be checked on its own after the restart.
        let keys = try await keymap.keys().filter { $0.zone == "standard" }.map(\.key)
        var random = SeededRandom(seed: UInt64(killAfter))
        let plan = (0..<4).flatMap { layer in
            keys.map { Edit(layer: layer, key: $0, action: ["KC_F13", "KC_F14", "KC_F15", "KC_F16"][layer]) }
        }.shuffled(using: &random)
        let acknowledged = Mutex<[Edit]>([])
        let stoppedBy = Mutex<String?>(nil)
        let stream = Task { () -> (any Error)? in
            for edit in plan {
                do {
                    try await keymap.setBinding(zone: "standard", layer: edit.layer, key: edit.key, action: edit.action)
                } catch {
                    stoppedBy.withLock { $0 = "\(error)" }
                    return error
                }
                acknowledged.withLock { $0.append(edit) }
            }
            return nil
        }
        // Waits for the stream to pass `killAfter` edits for as long as it makes progress: with the whole suite
        // beside it, every edit's two fsyncs share the disk with hundreds of others, and the stream can take minutes.
        // A stream that stops early, or stalls, says why and shows kblinkd's log.
        let progress = await eventually("\(killAfter) acknowledged edits") {
            StreamProgress(edits: acknowledged.withLock { $0.count }, stoppedBy: stoppedBy.withLock { $0 })
        } satisfies: {
            $0.edits >= killAfter || $0.stoppedBy != nil
        }
        if progress == nil || progress?.stoppedBy != nil {
            let reason = progress?.stoppedBy ?? "an edit still waiting for its answer"
            let log = first.standardError.suffix(4000)
            let count = acknowledged.withLock { $0.count }
            Issue.record("the stream stopped after \(count) edits, before the kill: \(reason); kblinkd's log: \(log)")
        }
        first.signal(SIGKILL)
        let streamError: (any Error)? = await stream.value
        #expect(streamError != nil, "the stream stops when the daemon dies")
        let killed = await first.wait(timeout: waitDeadline)
        #expect(killed.status == SIGKILL, "killed by the signal")
        let edits = acknowledged.withLock { $0 }
        #expect(edits.count >= killAfter && edits.count < plan.count, "killed in the middle of the stream")

        let second = try ChildProcess(DaemonHarness.binary("kblinkd-demo"), arguments)
        defer { second.signal(SIGKILL) }
        #expect(await Self.ready(keymap), "kblinkd did not restart: \(second.standardError)")
        var served: [Int: [String: String]] = [:]
        for layer in 0..<4 {
            served[layer] = Dictionary(
                uniqueKeysWithValues: try await keymap.bindings(zone: "standard", layer: layer).map {
                    ($0.key, $0.action)
                })
        }
        for edit in edits {
            #expect(served[edit.layer]?[edit.key] == edit.action, "lost \(edit)")
        }
        // At most the edits that were in flight at the kill came on top of the acknowledged ones.
        let changed = try await keymap.diff()
        #expect(changed.count >= edits.count && changed.count <= edits.count + 1)
        #expect(try await keymap.state().canUndo)
        #expect(!second.standardError.contains("corrupt"), "\(second.standardError)")
        second.signal(SIGTERM)
        let stopped = await second.wait(timeout: waitDeadline)
        #expect(stopped.status == 0, "kblinkd did not stop cleanly: \(stopped.standardError.suffix(2000))")
        await connection.close()
    }

    /// Waits until kblinkd serves the Aula's keymap.
    static func ready(_ keymap: KeymapClient) async -> Bool {
        await eventually { (try? await keymap.state()) != nil }
    }
}
