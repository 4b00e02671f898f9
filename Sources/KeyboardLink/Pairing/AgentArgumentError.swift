/// An `org.bluez.Agent1` call, passkey or PIN that does not have the form BlueZ documents.
package struct AgentArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    package var message: String

    /// Creates the error with a message that says what was expected.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
