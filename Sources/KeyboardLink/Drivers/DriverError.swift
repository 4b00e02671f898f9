/// Why a driver could not do what it was asked; each case carries a message a person can act on.
package enum DriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The keyboard must be unlocked (ZMK Studio: press the key bound to `&studio_unlock`).
    case locked(String)
    /// The keyboard cannot hold this (an action with no encoding, a macro the firmware lacks).
    case notSupported(String)
    /// The link is down or went down.
    case notConnected(String)
    /// The keyboard refused or answered nonsense.
    case failed(String)
    /// The user and the keyboard both changed the same keys, differently: nothing was written.
    case conflict(String)

    /// The message.
    package var message: String {
        switch self {
        case .locked(let text), .notSupported(let text), .notConnected(let text), .failed(let text),
            .conflict(let text):
            text
        }
    }

    package var description: String { message }
}
