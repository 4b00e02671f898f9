import Glibc

/// Reads, writes atomically, lists and sets files aside, for profiles and layouts.
///
/// An atomic write puts the bytes in a temporary file in the target's directory, `fsync`s it, renames it over the
/// target and `fsync`s the directory, so that after a crash the target holds either the old or the new bytes,
/// never a mix. A failed write removes its temporary file and leaves the target untouched. Once the rename is done
/// the new bytes are the target's: a failed directory `fsync` after it is not a failed write (it cannot be undone),
/// only a durability warning that the caller reports.
package struct FileStore: Sendable {
    package let syscalls: FileSyscalls

    package init(syscalls: FileSyscalls = .system) {
        self.syscalls = syscalls
    }

    /// The largest file read, so that a hostile or broken file cannot exhaust memory.
    package static let maximumReadSize = 16 << 20

    /// Writes `bytes` to `path` atomically.
    ///
    /// The temporary file is created exclusively (`O_EXCL`), never through a symbolic link (`O_NOFOLLOW`), under an
    /// unpredictable name, so a file or link planted beside the target cannot redirect the write.
    /// - Parameters:
    ///   - mode: the permission bits of a new file (0600 unless said: profiles and caches are the daemon's own).
    ///   - keepingMode: a file being replaced keeps its permission bits (a user's exported profile).
    /// - Returns: nil, or the error of the directory `fsync` when it failed after the rename: `path` then holds the
    ///   new bytes, which a power loss before the kernel writes the directory back might still undo.
    /// - Throws: ``FileError`` naming the step that failed and its errno; `path` is then untouched.
    @discardableResult
    package func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600, keepingMode: Bool = false
    ) throws(FileError) -> FileError? {
        let (directory, base) = Self.split(path)
        var existing = stat()
        var keptMode: mode_t?
        if stat(path, &existing) == 0 {
            if (existing.st_mode & S_IFMT) == S_IFDIR {
                throw FileError(operation: "writing", path: path, errno: EISDIR)
            }
            if keepingMode { keptMode = existing.st_mode & 0o7777 }
        }
        let temporary = "\(directory)/.\(base).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = InterruptedCall.retryNegatedErrno {
            syscalls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, keptMode ?? mode)
        }
        guard fd >= 0 else { throw FileError(operation: "creating a temporary file for", path: path, errno: -fd) }
        var failure: FileError?
        // fchmod, not only open's mode: the umask must not narrow the mode of the file being replaced.
        if let keptMode, fchmod(fd, keptMode) != 0 {
            failure = FileError(operation: "keeping the permissions of", path: path, errno: errno)
        }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                InterruptedCall.retryNegatedErrno {
                    syscalls.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                }
            }
            if written < 0 {
                failure = FileError(operation: "writing", path: path, errno: Int32(-written))
            } else if written == 0 {
                failure = FileError(operation: "writing", path: path, errno: ENOSPC)
            } else {
                offset += written
            }
        }
        if failure == nil {
            let synced = InterruptedCall.retryNegatedErrno { syscalls.fsync(fd) }
            if synced < 0 { failure = FileError(operation: "syncing", path: path, errno: -synced) }
        }
        let closed = syscalls.close(fd)
        if failure == nil, closed < 0 { failure = FileError(operation: "closing", path: path, errno: -closed) }
        if failure == nil {
            let renamed = InterruptedCall.retryNegatedErrno { syscalls.rename(temporary, path) }
            if renamed < 0 { failure = FileError(operation: "renaming the new file over", path: path, errno: -renamed) }
        }
        if let failure {
            _ = InterruptedCall.retryNegatedErrno { syscalls.unlink(temporary) }
            throw failure
        }
        // The rename is done: the new file is the target now, whatever the directory sync says.
        do {
            try syncDirectory(directory)
        } catch {
            return error
        }
        return nil
    }

    /// `fsync`s a directory so that a rename in it survives a crash.
    package func syncDirectory(_ directory: String) throws(FileError) {
        let fd = InterruptedCall.retryNegatedErrno { syscalls.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        guard fd >= 0 else { throw FileError(operation: "opening the directory", path: directory, errno: -fd) }
        let synced = InterruptedCall.retryNegatedErrno { syscalls.fsync(fd) }
        _ = syscalls.close(fd)
        if synced < 0 { throw FileError(operation: "syncing the directory", path: directory, errno: -synced) }
    }

    /// The bytes of a file; nil when it does not exist.
    /// - Throws: ``FileError``, also with `EFBIG` for files over `maximumReadSize`.
    package func read(_ path: String) throws(FileError) -> [UInt8]? {
        let fd = InterruptedCall.retryNegatedErrno { syscalls.open(path, O_RDONLY | O_CLOEXEC, 0) }
        if fd == -ENOENT { return nil }
        guard fd >= 0 else { throw FileError(operation: "opening", path: path, errno: -fd) }
        defer { _ = syscalls.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                InterruptedCall.retryNegatedErrno { syscalls.read(fd, buffer) }
            }
            if count < 0 { throw FileError(operation: "reading", path: path, errno: Int32(-count)) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > Self.maximumReadSize { throw FileError(operation: "reading", path: path, errno: EFBIG) }
        }
    }

    /// Removes a file and `fsync`s its directory, so that the removal survives a crash; a missing file is removed
    /// already.
    /// - Returns: nil, or the error of the directory `fsync` when it failed after the file was removed.
    /// - Throws: ``FileError`` when the file could not be removed; it is then untouched.
    @discardableResult
    package func remove(_ path: String) throws(FileError) -> FileError? {
        let result = syscalls.unlink(path)
        if result == -ENOENT { return nil }
        guard result == 0 else { throw FileError(operation: "removing", path: path, errno: -result) }
        do {
            try syncDirectory(Self.split(path).directory)
        } catch {
            return error
        }
        return nil
    }

    /// Creates a directory and any missing parents (mode 0700) unless they exist.
    package func makeDirectory(_ path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            let result = InterruptedCall.retryNegatedErrno { syscalls.mkdir(prefix, 0o700) }
            if result < 0 && result != -EEXIST {
                throw FileError(operation: "creating the directory", path: prefix, errno: -result)
            }
        }
    }

    /// Moves a file to `<path><suffix>` (or `<path><suffix>-2`, `-3`, ... when taken), never replacing a file.
    /// - Returns: the new path.
    package func setAside(_ path: String, suffix: String) throws(FileError) -> String {
        for attempt in 1...100 {
            let target = attempt == 1 ? path + suffix : "\(path)\(suffix)-\(attempt)"
            // link() refuses an existing target, which rename() would silently replace.
            let linked = InterruptedCall.retryNegatedErrno { syscalls.link(path, target) }
            if linked == -EEXIST { continue }
            if linked < 0 { throw FileError(operation: "setting aside", path: path, errno: -linked) }
            let removed = InterruptedCall.retryNegatedErrno { syscalls.unlink(path) }
            if removed < 0 { throw FileError(operation: "setting aside", path: path, errno: -removed) }
            // The move is done and cannot be undone: a failed directory sync only makes it less durable (after a
            // power loss the file may be back under its old name, and is then set aside again). Throwing here would
            // report a file that is no longer there as unreadable, and leave its keyboard without a keymap.
            _ = try? syncDirectory(Self.split(path).directory)
            return target
        }
        throw FileError(operation: "setting aside", path: path, errno: EEXIST)
    }

    /// The names in a directory, without `.` and `..`, sorted.
    package func list(_ directory: String) throws(FileError) -> [String] {
        guard let handle = opendir(directory) else {
            throw FileError(operation: "listing", path: directory, errno: errno)
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Splits a path into its directory (`.` when none) and last element.
    package static func split(_ path: String) -> (directory: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
