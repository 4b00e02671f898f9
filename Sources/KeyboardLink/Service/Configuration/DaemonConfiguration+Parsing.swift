import KeyboardLinkPresence
import KeyboardLinkSupport

extension DaemonConfiguration {
    /// A configuration and what was noticed while reading it.
    package struct Parsed: Sendable, Equatable {
        /// The settings, defaults filled in.
        package var configuration: DaemonConfiguration
        /// Unknown sections and keys, and keys set twice; log them and carry on.
        package var warnings: [ConfigurationWarning]
    }

    /// One documented key: where it lives, what it accepts, and how it sets the configuration.
    struct Key: Sendable {
        let section: String
        let name: String
        /// The allowed values, as the error message shows them.
        let allowed: String
        /// Sets the value, or returns nil when `value` is not allowed.
        let apply: @Sendable (inout DaemonConfiguration, String) -> Void?
    }

    /// Every key kblinkd reads, in the order the example file documents them.
    static let keys: [Key] = [
        Key(section: "General", name: "LogLevel", allowed: LogLevel.allNames.joined(separator: ", ")) {
            configuration, value in
            guard let level = LogLevel(name: value) else { return nil }
            configuration.logLevel = level
            return ()
        },
        Key(
            section: "Presence", name: "Policy",
            allowed: PresencePolicy.allCases.map(\.rawValue).joined(separator: ", ")
        ) { configuration, value in
            guard let policy = PresencePolicy(rawValue: value.lowercased()) else { return nil }
            configuration.presencePolicy = policy
            return ()
        },
        Key(section: "Presence", name: "InputDevices", allowed: "an absolute path, such as /proc/bus/input/devices") {
            configuration, value in
            guard isAbsolutePath(value) else { return nil }
            configuration.inputDevicesPath = value
            return ()
        },
        Key(section: "Presence", name: "InputDirectory", allowed: "an absolute path, such as /dev/input") {
            configuration, value in
            guard isAbsolutePath(value) else { return nil }
            configuration.inputDirectory = value
            return ()
        },
        Key(section: "Presence", name: "SysfsRoot", allowed: "an absolute path, such as /sys") {
            configuration, value in
            guard isAbsolutePath(value) else { return nil }
            configuration.sysfsRoot = value
            return ()
        },
        Key(
            section: "Presence", name: "GracePeriod",
            allowed: "seconds from 0 to 300, up to 3 decimals (such as 5 or 0.5)"
        ) { configuration, value in
            guard let period = seconds(value), gracePeriodRange.contains(period) else { return nil }
            configuration.gracePeriod = period
            return ()
        },
        Key(section: "Presence", name: "CountVirtualDevices", allowed: "true or false (also yes/no, on/off, 1/0)") {
            configuration, value in
            guard let flag = boolean(value) else { return nil }
            configuration.countsVirtualDevices = flag
            return ()
        },
        Key(section: "Health", name: "Deadline", allowed: "seconds from 1 to 120, up to 3 decimals (such as 10 or 2.5)")
        { configuration, value in
            guard let deadline = seconds(value), healthDeadlineRange.contains(deadline) else { return nil }
            configuration.health.deadline = deadline
            return ()
        },
        Key(section: "Health", name: "Budget", allowed: "whole healing steps from 0 to 10") { configuration, value in
            guard !value.isEmpty, value.count <= 2, value.allSatisfy({ ("0"..."9").contains($0) }),
                let budget = Int(value), (0...10).contains(budget)
            else { return nil }
            configuration.health.budget = budget
            return ()
        },
        Key(section: "Health", name: "Backoff", allowed: "seconds from 0 to 60, up to 3 decimals (such as 2 or 0.5)") {
            configuration, value in
            guard let backoff = seconds(value), backoff <= .seconds(60) else { return nil }
            configuration.health.backoff = backoff
            return ()
        },
        Key(section: "Health", name: "PowerCycleAdapter", allowed: "true or false (also yes/no, on/off, 1/0)") {
            configuration, value in
            guard let flag = boolean(value) else { return nil }
            configuration.health.powerCycleAdapter = flag
            return ()
        },
        Key(section: "Battery", name: "Provider", allowed: "true or false (also yes/no, on/off, 1/0)") {
            configuration, value in
            guard let flag = boolean(value) else { return nil }
            configuration.batteryProvider = flag
            return ()
        },
        Key(section: "Pairing", name: "DefaultAgent", allowed: "true or false (also yes/no, on/off, 1/0)") {
            configuration, value in
            guard let flag = boolean(value) else { return nil }
            configuration.defaultAgent = flag
            return ()
        },
        Key(
            section: "Pairing", name: "DiscoveryTimeout",
            allowed: "whole seconds from \(discoveryTimeoutRange.lowerBound) to \(discoveryTimeoutRange.upperBound)"
        ) { configuration, value in
            // Digits only: Int("+20") would parse, and units ("20s") are not part of the format.
            guard !value.isEmpty, value.allSatisfy({ ("0"..."9").contains($0) }), let seconds = Int(value),
                discoveryTimeoutRange.contains(seconds)
            else { return nil }
            configuration.discoveryTimeout = .seconds(seconds)
            return ()
        },
        Key(
            section: "Authorization", name: "FallbackGroup",
            allowed: "a group name (a letter or _, then up to 31 of a-z 0-9 _ -)"
        ) { configuration, value in
            guard isGroupName(value) else { return nil }
            configuration.fallbackGroup = value
            return ()
        },
    ]

    /// The allowed `[Health] Deadline`.
    static let healthDeadlineRange: ClosedRange<Duration> = .seconds(1) ... .seconds(120)

    /// A portable group name, as `groupadd` accepts by default: `[a-z_][a-z0-9_-]{0,31}`.
    static func isGroupName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= 32, first == UInt8(ascii: "_") || (97...122).contains(first)
        else { return false }
        return bytes.dropFirst().allSatisfy {
            (97...122).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// The sections kblinkd knows, in documentation order.
    static var knownSections: [String] {
        keys.reduce(into: []) { names, key in
            if !names.contains(key.section) { names.append(key.section) }
        }
    }

    /// Parses a configuration file's text.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - fileName: names the file in errors and warnings.
    /// - Throws: ``ConfigurationError`` naming the file, line and key, with the allowed values, for the first
    ///   malformed line or bad value.
    package static func parse(_ text: String, fileName: String) throws(ConfigurationError) -> Parsed {
        try interpret(INIDocument(parsing: text, fileName: fileName))
    }

    /// Applies a parsed INI document: known keys set the configuration (the last value of a repeated key wins),
    /// unknown sections and keys become warnings.
    /// - Throws: ``ConfigurationError`` for a value outside a key's allowed values.
    package static func interpret(_ document: INIDocument) throws(ConfigurationError) -> Parsed {
        var configuration = DaemonConfiguration()
        var warnings = document.warnings
        let sections = knownSections
        for section in document.sections where !sections.contains(section.name) {
            warnings.append(
                ConfigurationWarning(
                    file: document.fileName, line: section.line, section: section.name,
                    message: "unknown section, ignored; kblinkd reads "
                        + sections.map { "[\($0)]" }.joined(separator: ", ")))
        }
        for entry in document.effectiveEntries where sections.contains(entry.section) {
            guard let key = keys.first(where: { $0.section == entry.section && $0.name == entry.key }) else {
                let known = keys.filter { $0.section == entry.section }.map(\.name)
                var message = "unknown key, ignored; [\(entry.section)] has " + known.joined(separator: ", ")
                if let match = known.first(where: { $0.lowercased() == entry.key.lowercased() }) {
                    message += " (names are case-sensitive: did you mean \(match)?)"
                }
                warnings.append(
                    ConfigurationWarning(
                        file: document.fileName, line: entry.line, section: entry.section, key: entry.key,
                        message: message))
                continue
            }
            guard key.apply(&configuration, entry.value) != nil else {
                var message = "\"\(entry.value)\" is not allowed; use \(key.allowed)"
                if entry.value.contains("#") || entry.value.contains(";") {
                    message += " (comments must be on a line of their own)"
                }
                throw ConfigurationError(
                    file: document.fileName, line: entry.line, section: entry.section, key: entry.key,
                    message: message)
            }
        }
        return Parsed(configuration: configuration, warnings: warnings)
    }

    private static func isAbsolutePath(_ value: String) -> Bool {
        value.hasPrefix("/") && !value.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `5`, `0.5`, `1.250`: whole seconds with up to 3 decimals; no sign, no unit.
    package static func seconds(_ value: String) -> Duration? {
        let parts = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        guard digits(parts[0]), parts[0].count <= 6, let whole = Int(parts[0]) else { return nil }
        var milliseconds = whole * 1000
        if parts.count == 2 {
            guard digits(parts[1]), parts[1].count <= 3, let fraction = Int(parts[1]) else { return nil }
            milliseconds += fraction * [100, 10, 1][parts[1].count - 1]
        }
        return .milliseconds(milliseconds)
    }

    private static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }
}
