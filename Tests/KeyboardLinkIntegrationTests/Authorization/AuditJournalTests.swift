import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// kblinkd's audit trail as journald receives it: one native entry per record, with `KBLINK_AUDIT=1` and the caller,
/// action, object and result as fields of their own.
@Suite("The audit trail reaches the journal as fields no text can imitate")
struct AuditJournalTests {
    /// A datagram socket standing in for journald's native socket.
    final class FakeJournal: Sendable {
        let directory: TemporaryDirectory
        let path: String
        let descriptor: Int32

        init() throws {
            directory = try TemporaryDirectory()
            path = directory.path + "/journal.socket"
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                buffer.copyBytes(from: bytes)
                buffer[bytes.count] = 0
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0, "bind: errno \(errno)")
        }

        deinit { close(descriptor) }

        private let received = Mutex<[[String: String]]>([])

        /// Every entry received so far (waiting up to 50 ms for more), each as its fields; a field's value is its
        /// line, as journald would store it.
        func entries() -> [[String: String]] {
            received.withLock { received in
                read(into: &received)
                return received
            }
        }

        private func read(into received: inout [[String: String]]) {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) > 0 else { return }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                var fields: [String: String] = [:]
                for line in String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n") {
                    guard let equals = line.firstIndex(of: "=") else { continue }
                    fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
                received.append(fields)
            }
        }
    }

    @Test("an allowed push and one that failed are entries with KBLINK_AUDIT=1, the caller, action, object and result")
    func pushesAreAudited() async throws {
        let journal = try FakeJournal()
        try await StudioPushFixture.run(
            otherDevices: [.vgn98Pro], options: { $0.auditJournal = JournalWriter(socketPath: journal.path) }
        ) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            _ = try await keymap.push()
            // Allowed (root), then failed: the other keyboard is not connected.
            let connection = try await fixture.harness.bus.connect()
            let other = KeymapClient(
                connection: connection, path: KBlink.keyboardPath(SimulatedDevice.vgn98Pro.address))
            let refused = await #expect(throws: KBlinkError.self) { _ = try await other.push() }
            #expect(refused?.code == .notConnected)
            await connection.close()

            let arrived = await eventually {
                journal.entries().filter { $0["KBLINK_OPERATION"] == "Push" }.count == 2
            }
            let entries = journal.entries()
            #expect(arrived, "\(entries)")
            let pushes = entries.filter { $0["KBLINK_OPERATION"] == "Push" }
            let allowed = try #require(pushes.first { $0["KBLINK_RESULT"] == "allowed" }, "\(pushes)")
            #expect(allowed["KBLINK_AUDIT"] == "1")
            #expect(allowed["KBLINK_ACTION"] == "org.kblink1.write-firmware")
            #expect(allowed["KBLINK_OBJECT"] == KBlink.keyboardPath(fixture.address).rawValue)
            #expect(allowed["KBLINK_UID"] == "0")
            #expect(allowed["KBLINK_PID"] == String(getpid()))
            #expect(allowed["KBLINK_BASIS"] == "root")
            #expect(allowed["PRIORITY"] == "5")
            #expect(allowed["SYSLOG_IDENTIFIER"] == "kblinkd")
            #expect(allowed["MESSAGE"]?.hasPrefix("audit: org.kblink1.write-firmware Push on ") == true)
            let failed = try #require(pushes.first { $0["KBLINK_RESULT"] == "failed" }, "\(pushes)")
            #expect(failed["KBLINK_ERROR"] == "org.kblink1.Error.NotConnected")
            #expect(failed["KBLINK_OBJECT"] == KBlink.keyboardPath(SimulatedDevice.vgn98Pro.address).rawValue)
            // The edit before is audited too, by its own action.
            #expect(entries.contains { $0["KBLINK_OPERATION"] == "SetBinding" && $0["KBLINK_RESULT"] == "allowed" })
        }
    }

    @Test("an entry has one line per field: a value's newline and controls are escaped, so it cannot add a field")
    func valuesStayInTheirField() {
        let datagram = JournalWriter.datagram([
            ("MESSAGE", "audit: x\nKBLINK_AUDIT=1\nKBLINK_RESULT=allowed"), ("KBLINK_COMM", "evil\u{1b}[8m"),
        ])
        let lines = String(decoding: datagram, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].hasPrefix("MESSAGE=audit: x"))
        #expect(!lines[0].contains("\n"))
        #expect(lines[1].hasPrefix("KBLINK_COMM=evil") && !lines[1].contains("\u{1b}"))
        #expect(lines[2].isEmpty)
        #expect(JournalWriter.isValidFieldName("KBLINK_AUDIT"))
        #expect(!JournalWriter.isValidFieldName("_PID"))
        #expect(!JournalWriter.isValidFieldName("kblink"))
        #expect(!JournalWriter.isValidFieldName("1ST"))
    }
}
