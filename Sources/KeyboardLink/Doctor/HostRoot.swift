import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The host as `kblink doctor` reads it: `/sys`, `/proc`, `/etc`, `/dev`, `/usr` and `/var` under a root directory,
/// laid out as the kernel and Debian lay them out. `/` on this computer; a directory a test builds (`--root DIR`), so
/// that every check runs without this machine's hardware. Only reads; never needs root.
package struct HostRoot: Sendable {
    /// The directory standing for `/`.
    package let directory: String
    private let files = FileStore()

    /// The host under `directory` (`/` for this computer).
    package init(_ directory: String = "/") {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    /// `hostPath` (from `/`) under the root.
    package func path(_ hostPath: String) -> String { directory == "/" ? hostPath : directory + hostPath }

    /// A file's text; nil when it does not exist or cannot be read.
    package func text(_ hostPath: String) -> String? {
        guard let bytes = try? files.read(path(hostPath)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A file's first line without surrounding white space (a sysfs attribute); nil when absent.
    package func value(_ hostPath: String) -> String? {
        text(hostPath).map { String($0.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
            .map { $0.trimmingWhiteSpace() }
    }

    /// Whether something exists at `hostPath` (following links).
    package func exists(_ hostPath: String) -> Bool {
        var information = stat()
        return stat(path(hostPath), &information) == 0
    }

    /// The names in a directory, sorted; empty when it does not exist.
    package func list(_ hostPath: String) -> [String] {
        (try? files.list(path(hostPath))) ?? []
    }

    /// The last element of a symbolic link's target (a sysfs `driver` link names the driver); nil when no link.
    package func linkTargetName(_ hostPath: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path(hostPath), &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.map(String.init)
    }

    /// The host path a sysfs link resolves to (`/sys/class/bluetooth/hci0/device` to
    /// `/sys/devices/.../1-4:1.0`), within the root; nil when it does not resolve or leaves the root.
    package func resolved(_ hostPath: String) -> String? {
        guard let real = realpath(path(hostPath), nil) else { return nil }
        defer { free(real) }
        let text = String(cString: real)
        if directory == "/" { return text }
        guard let rootReal = realpath(directory, nil) else { return nil }
        defer { free(rootReal) }
        let rootText = String(cString: rootReal)
        guard text.hasPrefix(rootText + "/") else { return nil }
        return String(text.dropFirst(rootText.count))
    }

    /// The group owning a file, by name from the root's `/etc/group` (its number when the group is not listed); nil
    /// when the file does not exist.
    package func groupName(of hostPath: String) -> String? {
        var information = stat()
        guard stat(path(hostPath), &information) == 0 else { return nil }
        let gid = information.st_gid
        return groups().first { $0.gid == gid }?.name ?? "\(gid)"
    }

    /// The permission bits of a file; nil when it does not exist.
    package func mode(of hostPath: String) -> UInt32? {
        var information = stat()
        guard stat(path(hostPath), &information) == 0 else { return nil }
        return UInt32(information.st_mode & 0o7777)
    }

    /// The root's `/etc/group`: each group's name, number and members.
    package func groups() -> [(name: String, gid: UInt32, members: [String])] {
        (text("/etc/group") ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 4, let gid = UInt32(fields[2]) else { return nil }
            return (String(fields[0]), gid, fields[3].split(separator: ",").map(String.init))
        }
    }

    /// The command lines of the processes in the root's `/proc`, each as its arguments.
    package func processes() -> [[String]] {
        list("/proc").filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let bytes = try? files.read(path("/proc/\(pid)/cmdline")), !bytes.isEmpty else { return nil }
            return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// An INI-style file (`/etc/bluetooth/main.conf`, kblinkd.conf): `[Section] Key = value`, comments dropped;
    /// nil when the file does not exist.
    package func settings(_ hostPath: String) -> Settings? {
        text(hostPath).map(Settings.init(text:))
    }

    /// The keys of an INI-style file by section.
    package struct Settings: Sendable {
        private var values: [String: [String: String]] = [:]

        init(text: String) {
            var section = ""
            for raw in text.split(separator: "\n") {
                let line = String(raw).trimmingWhiteSpace()
                if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
                if line.hasPrefix("["), line.hasSuffix("]") {
                    section = String(line.dropFirst().dropLast()).trimmingWhiteSpace()
                    continue
                }
                guard let equals = line.firstIndex(of: "=") else { continue }
                let key = String(line[..<equals]).trimmingWhiteSpace()
                let value = String(line[line.index(after: equals)...]).trimmingWhiteSpace()
                values[section, default: [:]][key] = value
            }
        }

        /// The value of `key` in `section`; nil when not set (commented out or absent).
        package subscript(section: String, key: String) -> String? { values[section]?[key] }
    }
}
