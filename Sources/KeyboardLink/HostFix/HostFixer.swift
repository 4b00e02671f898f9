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

        /// The file or live value the record is about.
        var path: String {
            switch self {
            case .file(let path), .live(let path, _): path
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

    /// Applies `fixes` in order. Each change is recorded in the manifest (added to what it already holds) before it is
    /// made, so that `undo` knows it even when the helper stops halfway; a manifest that cannot be written stops the
    /// fix before it changes anything. A live value that cannot be written (the module not loaded, the device gone)
    /// is reported and skipped: the file still applies from the next load or boot.
    /// - Returns: one line per change, for people.
    package func apply(_ fixes: [HostFix]) throws -> [String] {
        var recorded = try records()
        var report: [String] = []
        func record(_ record: Record) throws {
            guard !recorded.contains(where: { $0.path == record.path }) else { return }
            recorded.append(record)
            try writeManifest(recorded)
        }
        let checker = fixes.contains(.viaHidrawAccess) ? try viaChecker() : ""
        for fix in fixes {
            if case .adapterAutosuspendOff(let vendor, let product, let device) = fix {
                try checkUSBDevice(device, vendor: vendor, product: product)
            }
            for (hostPath, text) in fix.files(checker: checker) {
                let target = path(hostPath)
                if let existing = try files.read(target), !existing.starts(with: Array(HostFix.header.utf8)) {
                    throw Failure("\(hostPath) exists and was not written by kblink: leaving it alone")
                }
                try record(.file(hostPath))
                try files.makeDirectory(FileStore.split(target).directory)
                try files.writeAtomically(Array(text.utf8), to: target, mode: 0o644)
                report.append("wrote \(hostPath)")
            }
            for (hostPath, value) in fix.liveValues {
                let target = path(hostPath)
                guard let current = try? files.read(target) else {
                    report.append("\(hostPath) is not there now: it applies from the next load or boot")
                    continue
                }
                let previous = String(decoding: current, as: UTF8.self).trimmingWhiteSpace()
                guard HostFix.isLiveValue(hostPath, previous) else {
                    throw Failure("\(hostPath) holds '\(previous)', which undo could not write back: leaving it alone")
                }
                try record(.live(hostPath, previous: previous))
                try writeLive(value, to: target)
                report.append("set \(hostPath) to \(value) (was \(previous))")
            }
        }
        return report
    }

    /// The program kblinkd's installed VIA rule runs (`PROGRAM=="/usr/bin/kblinkd --check-hidraw ..."`), which the
    /// VIA fix's rule runs too, since udev runs it as root for every hidraw node: it comes from that rule (in a rule
    /// directory, the administrator's first), never from the caller, and it is used only when it is a file named
    /// `kblinkd` that nobody but root (or whoever runs this helper, on a test's fake root) can change, in directories
    /// nobody else can change either.
    /// - Throws: ``Failure`` saying what is missing or unsafe.
    package func viaChecker() throws -> String {
        var rule: (path: String, text: String)?
        for directory in HostFix.udevRuleDirectories.reversed() {
            let hostPath = "\(directory)/\(HostFix.viaRuleName)"
            if let bytes = try? files.read(path(hostPath)) {
                rule = (hostPath, String(decoding: bytes, as: UTF8.self))
                break
            }
        }
        guard let rule else {
            throw Failure("kblinkd's udev rule \(HostFix.viaRuleName) is not installed: install kblinkd first")
        }
        guard let checker = HostFix.checkerPath(in: rule.text), HostFix.isCheckerPath(checker) else {
            throw Failure("\(rule.path) runs no program named kblinkd that a rule may name: leaving VIA access alone")
        }
        try checkOnlyRootChanges(rule.path)
        try checkOnlyRootChanges(checker)
        return checker
    }

    /// Throws unless nobody but root (or whoever runs the helper, on a test's fake root) can change what `hostPath`
    /// is: it and every directory above it, as written and with every link resolved, are owned by root and writable by
    /// their owner alone (a link's own mode means nothing; its directory's does), and it is a regular file.
    private func checkOnlyRootChanges(_ hostPath: String) throws {
        let target = path(hostPath)
        guard let resolvedPointer = realpath(target, nil) else {
            throw Failure("\(hostPath): \(String(cString: strerror(errno)))")
        }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Failure("\(hostPath) is not a regular file: leaving it alone")
        }
        // Under a fake root, its own directory (in a world-writable /tmp) is where the walk ends.
        let top = root == "/" ? "/" : root
        try checkOwnedByRoot(target, shownAs: hostPath, upTo: top)
        try checkOwnedByRoot(
            resolved, shownAs: hostPath + " (" + resolved + ")", upTo: resolved.hasPrefix(top + "/") ? top : "/")
    }

    /// Walks from `file` up to `top` (an ancestor of it, or `/`), throwing at the first entry that someone other than
    /// root (or whoever runs the helper) owns, or that is not a link and can be written by its group or others.
    private func checkOwnedByRoot(_ file: String, shownAs name: String, upTo top: String) throws {
        let owners: Set<uid_t> = [0, geteuid()]
        var current = file
        while true {
            var status = stat()
            guard lstat(current, &status) == 0 else {
                throw Failure("\(name): \(String(cString: strerror(errno)))")
            }
            let isLink = status.st_mode & S_IFMT == S_IFLNK
            guard owners.contains(status.st_uid), isLink || status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
                throw Failure("\(name): \(current) can be changed by someone other than root: leaving it alone")
            }
            if current == top || current == "/" { return }
            current = FileStore.split(current).directory
            if current.isEmpty { current = "/" }
        }
    }

    /// Throws unless the USB device `device` (`/sys/bus/usb/devices/<device>`) has this vendor and product: the live
    /// value is written to the adapter the rule names and to no other device. A device that is not there now passes
    /// (the live value is skipped; the rule applies from the next boot).
    private func checkUSBDevice(_ device: String, vendor: String, product: String) throws {
        let directory = path("/sys/bus/usb/devices/\(device)")
        func attribute(_ name: String) -> String? {
            (try? files.read("\(directory)/\(name)")).flatMap { $0 }
                .map { String(decoding: $0, as: UTF8.self).trimmingWhiteSpace().lowercased() }
        }
        guard let foundVendor = attribute("idVendor"), let foundProduct = attribute("idProduct") else { return }
        guard foundVendor == vendor, foundProduct == product else {
            throw Failure(
                "the USB device \(device) is \(foundVendor):\(foundProduct), not \(vendor):\(product): leaving it alone"
            )
        }
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
