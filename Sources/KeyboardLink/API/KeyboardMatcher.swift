import KeyboardLinkBlueZ

/// How a `device` argument designates a keyboard, for the daemon (`Pair`, `CancelPairing`) and the CLI alike: a
/// Bluetooth address, or a name. A name designates the keyboard whose alias is exactly it (ignoring case) or else
/// the only one whose alias or name starts with it.
public struct KeyboardMatcher<Candidate>: Sendable {
    /// Why no single keyboard matched.
    public enum Failure: Error {
        /// The text is empty.
        case empty
        /// A valid address that no candidate has.
        case unknownAddress(BluetoothAddress)
        /// A name no candidate's alias or name starts with.
        case unknownName(String)
        /// Several candidates match the name.
        case ambiguous(String, [Candidate])
    }

    private let address: @Sendable (Candidate) -> BluetoothAddress?
    private let alias: @Sendable (Candidate) -> String
    private let name: @Sendable (Candidate) -> String

    /// A matcher that reads each candidate's address, alias and over-the-air name with the given functions.
    public init(
        address: @escaping @Sendable (Candidate) -> BluetoothAddress?, alias: @escaping @Sendable (Candidate) -> String,
        name: @escaping @Sendable (Candidate) -> String
    ) {
        self.address = address
        self.alias = alias
        self.name = name
    }

    /// The one candidate `text` designates.
    /// - Throws: ``Failure``.
    public func match(_ text: String, in candidates: [Candidate]) throws(Failure) -> Candidate {
        guard !text.isEmpty else { throw .empty }
        if let wanted = BluetoothAddress(validating: text) {
            guard let found = candidates.first(where: { address($0) == wanted }) else {
                throw .unknownAddress(wanted)
            }
            return found
        }
        let needle = text.lowercased()
        let exact = candidates.filter { alias($0).lowercased() == needle }
        if exact.count == 1 { return exact[0] }
        let matches = candidates.filter {
            alias($0).lowercased().hasPrefix(needle) || name($0).lowercased().hasPrefix(needle)
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .unknownName(text)
        default: throw .ambiguous(text, matches)
        }
    }
}
