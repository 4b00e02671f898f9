/// A parsed INI file in the dialect of BlueZ's `main.conf`: `[Section]` headers, `Key = value` lines, and whole-line
/// comments starting with `#` or `;`.
///
/// Whitespace around names and values is trimmed; a value runs to the end of the line (there are no inline
/// comments, as in GLib's key files). A section that appears twice is merged; a key set twice keeps its last value
/// and records a warning. The parser knows nothing of kblinkd's keys: ``DaemonConfiguration`` checks those.
package struct INIDocument: Sendable, Equatable {
    /// One `Key = value` line.
    package struct Entry: Sendable, Equatable {
        /// The section the line is in.
        package var section: String
        /// The key, trimmed.
        package var key: String
        /// The value, trimmed; may be empty.
        package var value: String
        /// The 1-based line number.
        package var line: Int
    }

    /// A `[Section]` header.
    package struct Section: Sendable, Equatable {
        /// The name between the brackets, trimmed.
        package var name: String
        /// The 1-based line of its first header.
        package var line: Int
    }

    /// The largest file accepted; a configuration file is a few hundred bytes.
    package static let maximumSize = 1 << 20

    /// The file name used in diagnostics.
    package let fileName: String
    /// Each section name once, in order of first appearance, with the line of that first header.
    package private(set) var sections: [Section] = []
    /// Every entry in file order, including keys that a later line overrides.
    package private(set) var entries: [Entry] = []
    /// Keys set more than once.
    package private(set) var warnings: [ConfigurationWarning] = []

    /// Parses UTF-8 text.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - fileName: names the file in errors and warnings.
    /// - Throws: ``ConfigurationError`` with the line number for a malformed header, a line that is neither a
    ///   header, a `Key = value` pair nor a comment, a key outside any section, or a bad key name.
    package init(parsing text: String, fileName: String) throws(ConfigurationError) {
        try self.init(parsing: Array(text.utf8), fileName: fileName)
    }

    /// Parses raw bytes, refusing a file that is not UTF-8 or holds a NUL byte.
    /// - Throws: ``ConfigurationError`` as ``init(parsing:fileName:)-(String,_)`` does, and for bad encoding.
    package init(parsing bytes: [UInt8], fileName: String) throws(ConfigurationError) {
        self.fileName = fileName
        guard bytes.count <= Self.maximumSize else {
            throw ConfigurationError(
                file: fileName, message: "the file is larger than \(Self.maximumSize) bytes; is it the right file?")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            body = body.dropFirst(3)  // A UTF-8 byte order mark some editors write.
        }
        var currentSection: String?
        var lastLine: [String: Int] = [:]  // "section\nkey" -> line of the previous assignment
        for (index, rawLine) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let lineNumber = index + 1
            if rawLine.contains(0) {
                throw ConfigurationError(file: fileName, line: lineNumber, message: "the line contains a NUL byte")
            }
            guard let decoded = String(validating: rawLine, as: UTF8.self) else {
                throw ConfigurationError(
                    file: fileName, line: lineNumber, message: "the line is not valid UTF-8; save the file as UTF-8")
            }
            let line = Self.trimmed(decoded[...])
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") {
                continue
            }
            if line.hasPrefix("[") {
                let name = try Self.sectionName(in: line, fileName: fileName, line: lineNumber)
                currentSection = name
                if !sections.contains(where: { $0.name == name }) {
                    sections.append(Section(name: name, line: lineNumber))
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(
                    file: fileName, line: lineNumber,
                    message: "expected \"Key = value\", a \"[Section]\" header, or a comment starting with # or ;")
            }
            let key = String(Self.trimmed(line[..<equals]))
            let value = String(Self.trimmed(line[line.index(after: equals)...]))
            guard let section = currentSection else {
                throw ConfigurationError(
                    file: fileName, line: lineNumber, key: key.isEmpty ? nil : key,
                    message: "the key is outside any section; put it under a header such as [General]")
            }
            try Self.validateKey(key, fileName: fileName, section: section, line: lineNumber)
            let slot = section + "\n" + key
            if let previous = lastLine[slot] {
                warnings.append(
                    ConfigurationWarning(
                        file: fileName, line: lineNumber, section: section, key: key,
                        message: "set again (first set on line \(previous)); the last value wins"))
            }
            lastLine[slot] = lineNumber
            entries.append(Entry(section: section, key: key, value: value, line: lineNumber))
        }
    }

    /// The effective entry for `key` in `section`: the last one in the file.
    package func entry(section: String, key: String) -> Entry? {
        entries.last { $0.section == section && $0.key == key }
    }

    /// Every value given for `key` in `section`, in file order (for formats such as systemd units where a key
    /// may repeat to build a list).
    package func values(section: String, key: String) -> [String] {
        entries.filter { $0.section == section && $0.key == key }.map(\.value)
    }

    /// The effective entries (the last of each key), in order of each key's first appearance.
    package var effectiveEntries: [Entry] {
        var seen: [String: Int] = [:]
        var result: [Entry] = []
        for entry in entries {
            let slot = entry.section + "\n" + entry.key
            if let index = seen[slot] {
                result[index] = entry
            } else {
                seen[slot] = result.count
                result.append(entry)
            }
        }
        return result
    }

    private static func sectionName(in line: Substring, fileName: String, line lineNumber: Int)
        throws(ConfigurationError) -> String
    {
        guard line.hasSuffix("]") else {
            throw ConfigurationError(
                file: fileName, line: lineNumber,
                message: "a section header must end with ']' and have nothing after it, as in [General]")
        }
        let name = trimmed(line.dropFirst().dropLast())
        guard !name.isEmpty else {
            throw ConfigurationError(file: fileName, line: lineNumber, message: "the section name is empty")
        }
        let forbidden = name.unicodeScalars.contains { scalar in
            scalar == "[" || scalar == "]" || scalar.properties.generalCategory == .control
        }
        guard !forbidden else {
            throw ConfigurationError(
                file: fileName, line: lineNumber,
                message: "the section name \"\(name)\" must not contain brackets or control characters")
        }
        return String(name)
    }

    private static func validateKey(_ key: String, fileName: String, section: String, line: Int)
        throws(ConfigurationError)
    {
        guard !key.isEmpty else {
            throw ConfigurationError(
                file: fileName, line: line, section: section, message: "a key name is missing before '='")
        }
        let allowed = key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-.".unicodeScalars.contains(scalar))
        }
        guard allowed else {
            throw ConfigurationError(
                file: fileName, line: line, section: section,
                message: "the key name \"\(key)\" may only use ASCII letters, digits, '_', '-' and '.'")
        }
    }

    /// Trims spaces, tabs and a carriage return left by CRLF line ends.
    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = text.firstIndex(where: { !isSpace($0) }),
            let end = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[start...end]
    }
}
