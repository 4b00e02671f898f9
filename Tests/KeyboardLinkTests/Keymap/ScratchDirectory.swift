import Glibc
import Synchronization

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

/// A fresh directory under /tmp for one test, removed with its files when the test drops it.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/kblink-keymap-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw KeymapError.io(operation: "mkdtemp", path: "/tmp", errno: errno)
        }
        path = String(cString: made)
    }

    deinit {
        Self.remove(path)
    }

    private static func remove(_ path: String) {
        if let names = try? FileStore().list(path) {
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The names in the directory (or a subdirectory).
    func list(_ subpath: String = "") -> [String] {
        (try? FileStore().list(subpath.isEmpty ? path : path + "/" + subpath)) ?? []
    }

    func write(_ text: String, to name: String) throws {
        try FileStore().writeAtomically(Array(text.utf8), to: path + "/" + name)
    }

    func read(_ name: String) -> String? {
        (try? FileStore().read(path + "/" + name)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A thread-safe counter for injected system calls.
final class SyscallCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one call and returns how many came before it.
    func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
}
