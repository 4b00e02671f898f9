import Foundation
import Glibc
import Testing

@testable import KeyboardLinkSupport

@Suite("Unix accounts and /proc: the lookups the authorizer makes")
struct UnixAccountsTests {
    @Test("root's user, group and group list")
    func root() throws {
        #expect(UnixAccounts.groupID(named: "root") == 0)
        let root = try #require(UnixAccounts.user(withID: 0))
        #expect(root == UnixAccounts.User(name: "root", primaryGroupID: 0))
        #expect(UnixAccounts.groupIDs(of: root).contains(0))
    }

    @Test("unknown names and ids are nil")
    func unknown() {
        #expect(UnixAccounts.groupID(named: "kblink-no-such-group") == nil)
        #expect(UnixAccounts.user(withID: 4_000_000_000) == nil)
    }

    @Test("a process's command name, and nil for one that does not exist")
    func commandName() throws {
        let own = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
        #expect(UnixProcess.commandName(of: UInt32(getpid())) == own.trimmingCharacters(in: .newlines))
        #expect(UnixProcess.commandName(of: 4_000_000_000) == nil)
    }

    @Test("control characters in a command name are replaced, so a log line stays one line")
    func controlCharacters() throws {
        let root = NSTemporaryDirectory() + "kblink-proc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/7", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "evil\nline\u{1B}[2J\n".write(toFile: root + "/7/comm", atomically: false, encoding: .utf8)
        #expect(UnixProcess.commandName(of: 7, procRoot: root) == "evil?line?[2J")
    }
}
