/// A command-line geometry argument that could not be read; `description` is the message to print.
public struct GeometryArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The option the argument belongs to, such as `--window`.
    public let option: String
    /// The whole message: what was expected, an example, what was given and why it is wrong.
    public let message: String

    /// Creates an error.
    public init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    public var description: String { message }
}
