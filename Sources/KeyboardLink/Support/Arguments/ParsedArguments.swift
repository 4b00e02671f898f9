/// Command-line arguments split into options and positionals, checked against what a command accepts.
///
/// Options are `--name value`, `--name=value` or `--flag`; `--` ends options.
package struct ParsedArguments: Sendable {
    /// A usage error: the CLI prints it with the command's help hint and exits with code 2.
    package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        package var message: String
        package init(_ message: String) { self.message = message }
        package var description: String { message }
    }

    package private(set) var flags: Set<String> = []
    package private(set) var values: [String: String] = [:]
    package private(set) var positionals: [String] = []

    /// Parses `arguments` for a command that takes the given flags (no value) and options (with a value).
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a repeated option.
    package init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if knownOptions.contains(name) {
                guard values[name] == nil else { throw UsageError("\(name) is given twice") }
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                let names = (knownFlags.union(knownOptions)).sorted()
                let known = names.joined(separator: ", ")
                let hint = NearestName.nearest(to: name, in: names).map { "; did you mean \($0)?" } ?? ""
                throw UsageError(
                    "unknown option \(name)\(hint)" + (known.isEmpty ? "" : " (this command takes \(known))"))
            }
        }
    }

    /// Whether a flag was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An option's value.
    package func value(_ option: String) -> String? { values[option] }

    /// A number of seconds from an option, within `range`: a plain decimal number (`10`, `2.5`), not the other
    /// spellings `Double` reads (`0x10`, `1e1`, `+5`, `inf`).
    /// - Throws: ``UsageError`` when it is not such a number in range.
    package func seconds(_ option: String, default fallback: Double, range: ClosedRange<Double>) throws -> Double {
        guard let text = values[option] else { return fallback }
        guard Self.isPlainDecimal(text), let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                "\(option) expects seconds between \(Int(range.lowerBound)) and \(Int(range.upperBound)); got '\(text)'"
            )
        }
        return number
    }

    /// Whether `text` is ASCII digits with at most one `.` between digits.
    static func isPlainDecimal(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }

    /// Exactly `count` positionals, named for the error message.
    /// - Throws: ``UsageError`` when there are more or fewer.
    package func expectPositionals(_ names: [String]) throws -> [String] {
        guard positionals.count == names.count else {
            if positionals.count < names.count {
                throw UsageError("missing \(names[positionals.count])")
            }
            throw UsageError("unexpected argument '\(positionals[names.count])'")
        }
        return positionals
    }
}
