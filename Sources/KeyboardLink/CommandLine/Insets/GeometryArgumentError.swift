/// A command-line geometry argument that could not be read; `description` is the message to print.
package struct GeometryArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The option the argument belongs to, such as `--window`.
    package let option: String
    /// The whole message: what was expected, an example, what was given and why it is wrong.
    package let message: String

    /// Creates an error.
    package init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    package var description: String { message }
}
