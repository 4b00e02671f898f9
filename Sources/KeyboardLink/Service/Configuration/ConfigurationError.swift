/// A configuration file that cannot be used: where the problem is and what to write instead.
///
/// Printed as `FILE:LINE: [Section] Key: message`, the shape compilers use, so editors can jump to the line.
package struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    package var file: String
    /// The 1-based line, when the problem has one.
    package var line: Int?
    /// The section of the offending key, when there is one.
    package var section: String?
    /// The offending key, when there is one.
    package var key: String?
    /// What is wrong and what is allowed.
    package var message: String

    /// Creates an error.
    package init(file: String, line: Int? = nil, section: String? = nil, key: String? = nil, message: String) {
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

/// The shared `FILE:LINE: [Section] Key: message` rendering of errors and warnings.
enum ConfigurationLocation {
    static func render(file: String, line: Int?, section: String?, key: String?, message: String) -> String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        switch (section, key) {
        case (let section?, let key?): text += "[\(section)] \(key): "
        case (let section?, nil): text += "[\(section)]: "
        case (nil, let key?): text += "\(key): "
        case (nil, nil): break
        }
        return text + message
    }
}
