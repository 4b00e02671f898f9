import KeyboardLinkBlueZ

/// Why a firmware refresh read nothing worth keeping: the previous data stays as it was.
package struct FirmwareReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: String, Sendable, Equatable {
        /// The keyboard was not connected (or its services never resolved), so nothing was read.
        case notConnected
        /// The keyboard disconnected while its values were being read: what was read is incomplete.
        case disconnectedDuringRead
    }

    /// What went wrong.
    package var kind: Kind
    /// The GATT error behind it.
    package var cause: GATTError

    /// Creates an error.
    package init(_ kind: Kind, cause: GATTError) {
        self.kind = kind
        self.cause = cause
    }

    package var description: String {
        switch kind {
        case .notConnected:
            "the keyboard is not connected (\(cause.advice))"
        case .disconnectedDuringRead:
            "the keyboard disconnected while its information was being read (\(cause.description))"
        }
    }
}
