/// A firmware cache file that cannot be read; discard it and refresh from the keyboard.
package struct FirmwareCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the file.
    package var reason: String

    /// Creates the error with what is wrong with the file.
    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { "firmware cache unreadable: \(reason); it will be rebuilt on the next refresh" }
}
