import FoundationEssentials

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "kblink-tests-\(UInt64.random(in: 0...UInt64.max))", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let file = url.appending(path: name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
