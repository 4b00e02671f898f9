import KeyboardLinkDBus

/// The options of `org.kblink1.Keymap.ImportProfile`, on the wire `a{sv}`: `replace` (b, default false).
public struct ProfileImportRequest: Sendable, Equatable, DBusRepresentable {
    /// Replace every binding and macro (keys the profile leaves out are cleared) instead of merging.
    public var replace: Bool

    /// The largest profile JSON `ImportProfile` accepts, in bytes: a keymap's macros hold at most 1 MiB of text, so a
    /// real profile is well under this. A call whose body is larger (this and 64 KiB for the options) is refused
    /// before it is read, a smaller one with a larger profile before any of it is parsed.
    public static let maximumProfileBytes = 4 << 20

    /// Options as given.
    public init(replace: Bool = false) {
        self.replace = replace
    }

    /// `a{sv}`.
    public static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    /// Decodes the options.
    /// - Throws: `InvalidArgs` naming an unknown key or a value of the wrong type.
    public init(dbusValue: DBusValue) throws {
        let record = try VariantRecord("import option", dbusValue: dbusValue)
        try record.requireKnownKeys(["replace"])
        self.init(replace: try record.value("replace", or: false))
    }

    /// The options as `a{sv}`.
    public var dbusValue: DBusValue {
        var record = VariantRecord("import option")
        record.set("replace", replace)
        return record.dbusValue
    }
}

/// The answer of `org.kblink1.Keymap.ImportProfile`, on the wire `a{sv}`: what the import changed in the draft.
/// Keys a peer does not know are skipped; a key it knows with another type is an error.
public struct ProfileImportReport: Sendable, Equatable, DBusRepresentable {
    /// One binding changed; on the wire `(usss)`: layer, key, old and new action (QMK spelling), as a push lists
    /// what it wrote.
    public typealias Change = PushReport.Change

    /// One macro added, changed or removed; on the wire `(sss)`: name, old and new definition (empty for absent;
    /// ``MacroText/withheld`` for a caller not allowed to read it).
    public struct MacroChange: Sendable, Equatable, DBusWireMapped {
        /// The macro's name.
        public var name: String
        /// Its definition before (empty when it was added).
        public var old: String
        /// Its definition after (empty when it was removed).
        public var new: String

        /// A change as given.
        public init(name: String, old: String, new: String) {
            self.name = name
            self.old = old
            self.new = new
        }

        /// `(sss)`: name, old, new.
        public typealias WireForm = DBusStruct<String, String, String>
        /// A change from `(sss)`.
        public init(wireForm: WireForm) {
            let (name, old, new) = wireForm.fields
            self.init(name: name, old: old, new: new)
        }
        /// The change as `(sss)`.
        public var wireForm: WireForm { WireForm(name, old, new) }
    }

    /// Whether every binding and macro was replaced (`replace` option).
    public var replaced: Bool
    /// Keys cleared because the profile leaves them out (replacing imports only).
    public var cleared: Int
    /// The bindings changed, in layer then reading order.
    public var changes: [Change]
    /// The macros changed, by name.
    public var macros: [MacroChange]

    /// A report as given.
    public init(replaced: Bool = false, cleared: Int = 0, changes: [Change] = [], macros: [MacroChange] = []) {
        self.replaced = replaced
        self.cleared = cleared
        self.changes = changes
        self.macros = macros
    }

    /// `a{sv}`.
    public static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    /// Decodes the answer; missing keys read as zero or empty.
    /// - Throws: `InvalidArgs` when a known key holds another type.
    public init(dbusValue: DBusValue) throws {
        let record = try VariantRecord("import answer", dbusValue: dbusValue)
        self.init(
            replaced: try record.value("replaced", or: false), cleared: Int(try record.value("cleared", or: UInt32(0))),
            changes: try record.value("changes", or: []), macros: try record.value("macros", or: []))
    }

    /// The answer as `a{sv}`: `replaced` (b), `cleared` (u), `changes` (`a(usss)`), `macros` (`a(sss)`).
    public var dbusValue: DBusValue {
        var record = VariantRecord("import answer")
        record.set("replaced", replaced)
        record.set("cleared", UInt32(clamping: cleared))
        record.set("changes", changes)
        record.set("macros", macros)
        return record.dbusValue
    }
}
