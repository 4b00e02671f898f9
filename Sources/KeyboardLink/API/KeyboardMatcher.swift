import KeyboardLinkBlueZ

/// How a `device` argument designates a keyboard, for the daemon (`Pair`, `CancelPairing`) and the CLI alike: a
/// Bluetooth address, or a name. A name designates the keyboard whose alias is exactly it (ignoring case) or else
/// the only one whose alias or name starts with it.
///
/// A device in radio range can name itself like the user's keyboard, or like its start ("Keychron K3" beside the
/// user's "Keychron K3 Pro"): a name that is exactly an unpaired keyboard's alias while other keyboards' aliases or
/// names start with it designates none of them (``Failure/unpairedExact(_:_:)``); the caller asks which one, by
/// address.
public struct KeyboardMatcher<Candidate: Sendable>: Sendable {
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
        /// The name is exactly an unpaired candidate's alias (the first), and the others' aliases or names start
        /// with it: which one is meant is asked, not guessed.
        case unpairedExact(String, [Candidate])
    }

    private let address: @Sendable (Candidate) -> BluetoothAddress?
    private let alias: @Sendable (Candidate) -> String
    private let name: @Sendable (Candidate) -> String
    private let paired: @Sendable (Candidate) -> Bool

    /// A matcher that reads each candidate's address, alias, over-the-air name and whether it is paired with the
    /// given functions.
    public init(
        address: @escaping @Sendable (Candidate) -> BluetoothAddress?, alias: @escaping @Sendable (Candidate) -> String,
        name: @escaping @Sendable (Candidate) -> String, paired: @escaping @Sendable (Candidate) -> Bool
    ) {
        self.address = address
        self.alias = alias
        self.name = name
        self.paired = paired
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
        let matches = candidates.filter {
            alias($0).lowercased().hasPrefix(needle) || name($0).lowercased().hasPrefix(needle)
        }
        if exact.count == 1 {
            let others = matches.filter { address($0) != address(exact[0]) }
            if !paired(exact[0]) && !others.isEmpty { throw .unpairedExact(text, exact + others) }
            return exact[0]
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .unknownName(text)
        default: throw .ambiguous(text, matches)
        }
    }
}
