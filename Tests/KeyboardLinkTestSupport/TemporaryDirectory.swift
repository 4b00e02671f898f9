import Foundation
import Glibc
import KeyboardLinkSupport

/// A fresh directory under /tmp for one test, removed with its files by ``remove()`` or when the test drops it.
package final class TemporaryDirectory: Sendable {
    /// The directory's path.
    package let path: String

    /// Creates `/tmp/kblink-tests-XXXXXX`.
    package init() throws {
        var template = Array("/tmp/kblink-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw FileError(operation: "creating a temporary directory in", path: "/tmp", errno: errno)
        }
        path = String(cString: made)
    }

    deinit {
        remove()
    }

    /// The directory as a file URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Removes the directory and everything in it (again: nothing).
    package func remove() {
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

    /// The names in the directory (or a subdirectory), sorted.
    package func list(_ subpath: String = "") -> [String] {
        (try? FileStore().list(subpath.isEmpty ? path : path + "/" + subpath)) ?? []
    }

    /// Writes `text` to `name` inside the directory (atomically) and returns the file's path.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> String {
        try FileStore().writeAtomically(Array(text.utf8), to: path + "/" + name, mode: 0o644)
        return path + "/" + name
    }

    /// The text of `name` inside the directory; nil when it cannot be read.
    package func read(_ name: String) -> String? {
        (try? FileStore().read(path + "/" + name)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}
