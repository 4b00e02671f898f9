/// A pairing signal, code or agent argument that does not have the documented form.
public struct PairingProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String

    /// Creates the error with a message that says what was expected.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
