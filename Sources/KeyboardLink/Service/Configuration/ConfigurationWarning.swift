/// Something in a configuration file that kblinkd ignores or overrides but does not refuse: an unknown section or
/// key (often a typo), or a key set twice.
package struct ConfigurationWarning: Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    package var file: String
    /// The 1-based line the warning is about.
    package var line: Int
    /// The section concerned.
    package var section: String?
    /// The key concerned.
    package var key: String?
    /// What was noticed and what kblinkd does about it.
    package var message: String

    /// Creates a warning.
    package init(file: String, line: Int, section: String? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.section = section
        self.key = key
        self.message = message
    }

    package var description: String {
        ConfigurationLocation.render(file: file, line: line, section: section, key: key, message: message)
    }
}
