import KeyboardLinkSupport

/// Profiles set aside (`<name>.json.corrupt-<unix time>`, `.unusable-<unix time>`, with `-2`, `-3`, ... when the
/// name was taken) are kept 30 days for someone to look at, then removed, so that a keyboard whose profile keeps
/// failing cannot fill the state directory.
extension ProfileStore {
    /// How long a set-aside profile is kept, in seconds: 30 days.
    package static let setAsideRetention: Int64 = 30 * 86_400

    /// Removes the profiles set aside more than ``setAsideRetention`` ago, by the time in their name (a hard link
    /// keeps the original file's modification time, so the name is the only record of when it was set aside).
    /// - Returns: the paths removed; files that could not be removed are left and not listed.
    @discardableResult
    package func removeExpiredSetAside() -> [String] {
        guard let names = try? files.list(directory) else { return [] }
        let now = clock()
        var removed: [String] = []
        for name in names {
            guard let time = Self.setAsideTime(of: name), now - time > Self.setAsideRetention else { continue }
            let path = "\(directory)/\(name)"
            if InterruptedCall.retryNegatedErrno({ files.syscalls.unlink(path) }) == 0 {
                removed.append(path)
            }
        }
        return removed
    }

    /// When a file named like a set-aside profile was set aside; nil for any other name.
    static func setAsideTime(of name: String) -> Int64? {
        for marker in [".json.corrupt-", ".json.unusable-"] {
            guard let range = name.firstRange(of: marker), range.lowerBound > name.startIndex else { continue }
            var rest = name[range.upperBound...]
            if let dash = rest.firstIndex(of: "-") {
                guard let attempt = Int(rest[rest.index(after: dash)...]), attempt >= 2 else { return nil }
                rest = rest[..<dash]
            }
            guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int64(rest)
        }
        return nil
    }
}
