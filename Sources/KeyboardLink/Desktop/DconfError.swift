/// What went wrong reading or writing dconf.
package enum DconfError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The user database is not a GVDB file dconf could have written.
    case malformedDatabase(String)
    /// The database could not be read.
    case unreadable(path: String, reason: String)
    /// A key that is not an absolute dconf key (`/a/b`), or too long.
    case invalidKey(String)

    package var description: String {
        switch self {
        case .malformedDatabase(let reason): "the dconf database is malformed: \(reason)"
        case .unreadable(let path, let reason): "cannot read the dconf database \(path): \(reason)"
        case .invalidKey(let key): "invalid dconf key \"\(key.prefix(80))\": a key is /path/to/key, at most 1024 bytes"
        }
    }
}
