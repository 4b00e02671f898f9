import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Applies ``HostFix``es under a root directory (`/` on the host, a fake root in tests) and undoes them: every file
/// written and every live value changed (with the value it had) is recorded in the manifest
/// (``HostFix/manifest``), and ``undo()`` takes back exactly those.
package struct HostFixer: Sendable {
    /// The directory the host's `/etc`, `/sys` and `/var` are under: `/`, or a fake root.
    package let root: String
    private let files = FileStore()

    /// A fixer working under `root` (`/` on the host).
    package init(root: String = "/") {
        self.root = root.hasSuffix("/") && root != "/" ? String(root.dropLast()) : root
    }

    /// Why a fix could not be applied or undone.
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// One line of the manifest: a file kblink wrote, or a live value it changed and what it was.
    package enum Record: Sendable, Equatable {
        case file(String)
        case live(String, previous: String)

        var line: String {
            switch self {
            case .file(let path): "file \(path)"
            case .live(let path, let previous): "live \(path) \(previous)"
            }
        }

        init?(line: Substring) {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            switch (words.first, words.count) {
            case ("file", 2): self = .file(String(words[1]))
            case ("live", 3): self = .live(String(words[1]), previous: String(words[2]))
            default: return nil
            }
        }
    }

    /// The path of `hostPath` (from `/`) under the root.
    package func path(_ hostPath: String) -> String { root == "/" ? hostPath : root + hostPath }

    /// What the manifest records, in order; empty when there is none.
    /// - Throws: ``Failure`` when it holds a line no fix writes (a file or live value outside the fixes' own): then
    ///   nothing is undone.
    package func records() throws -> [Record] {
        guard let bytes = try files.read(path(HostFix.manifest)) else { return [] }
        var records: [Record] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let record = Record(line: line)
            switch record {
            case .file(let file)? where HostFix.isFixFile(file): break
            case .live(let live, let previous)? where HostFix.isLiveValue(live, previous): break
            default: throw Failure("\(HostFix.manifest) holds a line kblink-fix-host does not write: \(line)")
            }
            if let record { records.append(record) }
        }
        return records
    }

    /// Applies `fixes` in order and records each change in the manifest (added to what it already holds). A live
    /// value that cannot be written (the module not loaded, the device gone) is reported and skipped: the file still
    /// applies from the next load or boot.
    /// - Returns: one line per change, for people.
    package func apply(_ fixes: [HostFix]) throws -> [String] {
        var recorded = try records()
        var report: [String] = []
        defer { try? writeManifest(recorded) }
        for fix in fixes {
            for (hostPath, text) in fix.files {
                let target = path(hostPath)
                if let existing = try files.read(target), !existing.starts(with: Array(HostFix.header.utf8)) {
                    throw Failure("\(hostPath) exists and was not written by kblink: leaving it alone")
                }
                try files.makeDirectory(FileStore.split(target).directory)
                try files.writeAtomically(Array(text.utf8), to: target, mode: 0o644)
                if !recorded.contains(.file(hostPath)) { recorded.append(.file(hostPath)) }
                report.append("wrote \(hostPath)")
            }
            for (hostPath, value) in fix.liveValues {
                let target = path(hostPath)
                guard let current = try? files.read(target) else {
                    report.append("\(hostPath) is not there now: it applies from the next load or boot")
                    continue
                }
                let previous = String(decoding: current, as: UTF8.self).trimmingWhiteSpace()
                try writeLive(value, to: target)
                if !recorded.contains(where: { if case .live(hostPath, _) = $0 { true } else { false } }) {
                    recorded.append(.live(hostPath, previous: previous))
                }
                report.append("set \(hostPath) to \(value) (was \(previous))")
            }
        }
        return report
    }

    /// Takes back what the manifest records, newest first: removes each file (only when it still starts with kblink's
    /// header), writes each live value back, and removes the manifest.
    /// - Returns: one line per change, for people; empty when nothing was recorded.
    package func undo() throws -> [String] {
        var report: [String] = []
        for record in try records().reversed() {
            switch record {
            case .file(let hostPath):
                let target = path(hostPath)
                guard let existing = try files.read(target) else { continue }
                guard existing.starts(with: Array(HostFix.header.utf8)) else {
                    report.append("\(hostPath) was changed since: left in place")
                    continue
                }
                guard unlink(target) == 0 else {
                    throw Failure("removing \(hostPath): \(String(cString: strerror(errno)))")
                }
                report.append("removed \(hostPath)")
            case .live(let hostPath, let previous):
                let target = path(hostPath)
                guard (try? files.read(target)) != nil else {
                    report.append("\(hostPath) is not there now: nothing to put back")
                    continue
                }
                try writeLive(previous, to: target)
                report.append("set \(hostPath) back to \(previous)")
            }
        }
        if unlink(path(HostFix.manifest)) != 0 && errno != ENOENT {
            throw Failure("removing \(HostFix.manifest): \(String(cString: strerror(errno)))")
        }
        return report
    }

    /// Writes a live value in place (a sysfs attribute cannot be replaced by a rename).
    private func writeLive(_ value: String, to target: String) throws {
        let fd = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw Failure("opening \(target): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure("writing \(target): \(String(cString: strerror(errno)))") }
    }

    private func writeManifest(_ records: [Record]) throws {
        let target = path(HostFix.manifest)
        if records.isEmpty { return }
        try files.makeDirectory(FileStore.split(target).directory)
        try files.writeAtomically(
            Array((HostFix.header + records.map(\.line).joined(separator: "\n") + "\n").utf8), to: target, mode: 0o644)
    }
}
