import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension FirmwareCache {
    /// Creates `path` and its missing parents (mode 0755); an existing directory is fine.
    static func makeDirectory(_ path: String) throws(FirmwareCacheWriteError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FirmwareCacheWriteError(path: current, step: "create the directory", errno: errno)
            }
        }
    }

    /// Writes `bytes` atomically (``FileStore/writeAtomically(_:to:mode:keepingMode:)``, mode 0600), so the file is
    /// either the old one or the complete new one after a crash.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FirmwareCacheWriteError) {
        let warning: FileError?
        do {
            warning = try FileStore().writeAtomically(bytes, to: path, mode: 0o600)
        } catch {
            throw FirmwareCacheWriteError(path: error.path, step: error.operation, errno: error.errno)
        }
        // The rename is durable only once the directory is flushed.
        if let warning {
            throw FirmwareCacheWriteError(path: warning.path, step: "flush the directory of", errno: warning.errno)
        }
    }
}
