import KeyboardLinkSupport

extension KeymapError {
    /// The keymap's error for a failed file operation: `.io` with the same operation, path and errno.
    package init(_ error: FileError) {
        self = .io(operation: error.operation, path: error.path, errno: error.errno)
    }

    /// Runs a file operation, its ``FileError`` thrown as ``KeymapError/io(operation:path:errno:)``.
    package static func file<Result>(_ operation: () throws(FileError) -> Result) throws(KeymapError) -> Result {
        do {
            return try operation()
        } catch {
            throw KeymapError(error)
        }
    }
}
