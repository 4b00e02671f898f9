/// Something in a configuration file that kblinkd ignores or overrides but does not refuse: an unknown section or
/// key (often a typo), or a key set twice.
public struct ConfigurationWarning: Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The 1-based line the warning is about.
    public var line: Int
    /// The section concerned.
    public var section: String?
    /// The key concerned.
    public var key: String?
    /// What was noticed and what kblinkd does about it.
    public var message: String

    /// Creates a warning.
    public init(file: String, line: Int, section: String? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.section = section
        self.key = key
        self.message = message
    }

    public var description: String {
        ConfigurationLocation.render(file: file, line: line, section: section, key: key, message: message)
    }
}
