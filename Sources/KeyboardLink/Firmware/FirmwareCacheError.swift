/// A firmware cache file that cannot be read; discard it and refresh from the keyboard.
public struct FirmwareCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the file.
    public var reason: String

    /// Creates the error with what is wrong with the file.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "firmware cache unreadable: \(reason); it will be rebuilt on the next refresh" }
}
