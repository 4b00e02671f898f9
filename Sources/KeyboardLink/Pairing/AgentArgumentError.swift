/// An `org.bluez.Agent1` call, passkey or PIN that does not have the form BlueZ documents.
public struct AgentArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String

    /// Creates the error with a message that says what was expected.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
