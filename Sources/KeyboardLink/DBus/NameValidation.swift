/// The D-Bus specification's naming rules, checked in Swift so that no string reaches libdbus
/// unvalidated (libdbus aborts the process on an invalid name).
enum NameValidation {
    static let maximumNameLength = 255

    static func isNameCharacter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Checks an object path: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]`.
    static func checkObjectPath(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return "an object path cannot be empty" }
        guard first == 0x2F else { return "an object path starts with '/'" }
        if bytes.count == 1 { return nil }
        guard bytes.last != 0x2F else { return "an object path cannot end with '/'" }
        var previousWasSlash = true
        for byte in bytes.dropFirst() {
            if byte == 0x2F {
                if previousWasSlash { return "an object path cannot contain '//'" }
                previousWasSlash = true
            } else if isNameCharacter(byte) {
                previousWasSlash = false
            } else {
                return "an object path element may contain only A-Z, a-z, 0-9 and '_'"
            }
        }
        return nil
    }

    /// Checks an interface or error name: two or more dot-separated elements of `[A-Za-z0-9_]`, none starting
    /// with a digit, at most 255 bytes.
    static func checkDottedName(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return "the name is empty" }
        if bytes.count > maximumNameLength { return "the name is longer than 255 bytes" }
        var elements = 0
        var elementLength = 0
        for byte in bytes {
            if byte == 0x2E {
                if elementLength == 0 { return "the name has an empty element" }
                elements += 1
                elementLength = 0
            } else if isNameCharacter(byte) {
                if elementLength == 0 && isDigit(byte) { return "an element cannot start with a digit" }
                elementLength += 1
            } else {
                return "the name may contain only A-Z, a-z, 0-9, '_' and '.'"
            }
        }
        if elementLength == 0 { return "the name has an empty element" }
        elements += 1
        if elements < 2 { return "the name needs at least two elements separated by '.'" }
        return nil
    }

    /// Checks a member (method, signal or property) name: `[A-Za-z_][A-Za-z0-9_]*`, at most 255 bytes.
    static func checkMemberName(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return "the name is empty" }
        if bytes.count > maximumNameLength { return "the name is longer than 255 bytes" }
        if isDigit(bytes[0]) { return "a member name cannot start with a digit" }
        for byte in bytes where !isNameCharacter(byte) {
            return "a member name may contain only A-Z, a-z, 0-9 and '_'"
        }
        return nil
    }

    /// Checks a bus name: a unique name (`:1.42`) or a well-known name (`org.kblink1`).
    static func checkBusName(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return "the bus name is empty" }
        if bytes.count > maximumNameLength { return "the bus name is longer than 255 bytes" }
        let unique = bytes[0] == 0x3A
        let body = unique ? bytes.dropFirst() : bytes[...]
        var elements = 0
        var elementLength = 0
        for byte in body {
            if byte == 0x2E {
                if elementLength == 0 { return "the bus name has an empty element" }
                elements += 1
                elementLength = 0
            } else if isNameCharacter(byte) || byte == 0x2D {
                if elementLength == 0 && isDigit(byte) && !unique {
                    return "an element of a well-known bus name cannot start with a digit"
                }
                elementLength += 1
            } else {
                return "a bus name may contain only A-Z, a-z, 0-9, '_', '-' and '.'"
            }
        }
        if elementLength == 0 { return "the bus name has an empty element" }
        elements += 1
        if elements < 2 { return "a bus name needs at least two elements separated by '.'" }
        return nil
    }

    /// Checks that a string can travel as a D-Bus string: no NUL (Swift strings are valid UTF-8 already).
    static func checkStringPayload(_ text: String) -> String? {
        text.utf8.contains(0) ? "a D-Bus string cannot contain NUL" : nil
    }
}
