import KeyboardLinkDBus

/// The answer of `org.kblink1.Keymap.Push` and `CheckAction`, on the wire `a{sv}` (docs/dbus-api.md): what was
/// written (or, for a dry run, would be), what the keyboard changed by itself, what conflicts and what the firmware
/// cannot hold. Keys a peer does not know are skipped; a key it knows with another type is an error.
public struct PushReport: Sendable, Equatable, DBusRepresentable {
    /// One binding written (or to write); on the wire `(usss)`: layer, key, what the keyboard held, what was
    /// written.
    public struct Change: Sendable, Equatable, Encodable, DBusWireMapped {
        /// The layer.
        public var layer: Int
        /// The key.
        public var key: String
        /// What the keyboard held.
        public var old: String
        /// What was (or would be) written.
        public var new: String

        /// A change as given.
        public init(layer: Int, key: String, old: String, new: String) {
            self.layer = layer
            self.key = key
            self.old = old
            self.new = new
        }

        /// `(usss)`: layer, key, old, new.
        public typealias WireForm = DBusStruct<UInt32, String, String, String>
        /// A change from `(usss)`.
        public init(wireForm: WireForm) {
            let (layer, key, old, new) = wireForm.fields
            self.init(layer: Int(layer), key: key, old: old, new: new)
        }
        /// The change as `(usss)`.
        public var wireForm: WireForm { WireForm(UInt32(clamping: layer), key, old, new) }
    }

    /// A binding the firmware cannot hold; on the wire `(usss)`: layer, key, action (QMK spelling), why.
    public struct Problem: Sendable, Equatable, Encodable, DBusWireMapped {
        /// The layer.
        public var layer: Int
        /// The key (empty for a check of an action alone).
        public var key: String
        /// The action (QMK spelling).
        public var action: String
        /// Why the firmware cannot hold it.
        public var reason: String

        /// A problem as given.
        public init(layer: Int, key: String, action: String, reason: String) {
            self.layer = layer
            self.key = key
            self.action = action
            self.reason = reason
        }

        /// `(usss)`: layer, key, action, reason.
        public typealias WireForm = DBusStruct<UInt32, String, String, String>
        /// A problem from `(usss)`.
        public init(wireForm: WireForm) {
            let (layer, key, action, reason) = wireForm.fields
            self.init(layer: Int(layer), key: key, action: action, reason: reason)
        }
        /// The problem as `(usss)`.
        public var wireForm: WireForm { WireForm(UInt32(clamping: layer), key, action, reason) }
    }

    /// A key the base, the draft and the keyboard disagree on; on the wire `(ussss)`.
    public struct Difference: Sendable, Equatable, Encodable, DBusWireMapped {
        /// The layer.
        public var layer: Int
        /// The key.
        public var key: String
        /// What the base holds (what kblinkd last read from or wrote to the keyboard).
        public var base: String
        /// What the draft holds.
        public var draft: String
        /// What the keyboard holds now.
        public var keyboard: String

        /// A difference as given.
        public init(layer: Int, key: String, base: String, draft: String, keyboard: String) {
            self.layer = layer
            self.key = key
            self.base = base
            self.draft = draft
            self.keyboard = keyboard
        }

        /// `(ussss)`: layer, key, base, draft, keyboard.
        public typealias WireForm = DBusStruct<UInt32, String, String, String, String>
        /// A difference from `(ussss)`.
        public init(wireForm: WireForm) {
            let (layer, key, base, draft, keyboard) = wireForm.fields
            self.init(layer: Int(layer), key: key, base: base, draft: draft, keyboard: keyboard)
        }
        /// The difference as `(ussss)`.
        public var wireForm: WireForm { WireForm(UInt32(clamping: layer), key, base, draft, keyboard) }
    }

    /// Bindings written (0 for a dry run).
    public var written: Int
    /// VIA macro slots written (or, for a dry run, to write).
    public var macroSlots: Int
    /// Layers added after the keyboard's last one (ZMK Studio; or, for a dry run, to add).
    public var layersAdded: Int
    /// The keyboard's last layers removed, the draft having fewer (ZMK Studio; or, for a dry run, to remove).
    public var layersRemoved: Int
    /// Layers whose name was written, the draft naming them otherwise (ZMK Studio; or, for a dry run, to write).
    public var layersRenamed: Int
    /// Whether nothing was written because it was a dry run.
    public var dryRun: Bool
    /// Whether the keyboard was read back and matched.
    public var verified: Bool
    /// Whether the changes were saved on the keyboard.
    public var saved: Bool
    /// The driver used (`zmk-studio`, `via`).
    public var driver: String
    /// What was (or would be) written.
    public var changes: [Change]
    /// Keys the keyboard changed by itself since the base: kept (and adopted into the base by a push).
    public var kept: [Difference]
    /// Keys both the draft and the keyboard changed, differently: a dry run lists them; a push stops on them.
    public var conflicts: [Difference]
    /// With `overwrite`: the bindings written (or, for a dry run, to write) that the draft had not changed.
    public var uneditedWrites: Int
    /// Bindings the firmware cannot hold: a dry run lists them all; a real push is refused before writing.
    public var problems: [Problem]

    /// A report as given.
    public init(
        written: Int = 0, macroSlots: Int = 0, layersAdded: Int = 0, layersRemoved: Int = 0, layersRenamed: Int = 0,
        dryRun: Bool = false, verified: Bool = false, saved: Bool = false, driver: String = "", changes: [Change] = [],
        kept: [Difference] = [], conflicts: [Difference] = [], uneditedWrites: Int = 0, problems: [Problem] = []
    ) {
        self.written = written
        self.macroSlots = macroSlots
        self.layersAdded = layersAdded
        self.layersRemoved = layersRemoved
        self.layersRenamed = layersRenamed
        self.dryRun = dryRun
        self.verified = verified
        self.saved = saved
        self.driver = driver
        self.changes = changes
        self.kept = kept
        self.conflicts = conflicts
        self.uneditedWrites = uneditedWrites
        self.problems = problems
    }

    /// `a{sv}`.
    public static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    /// Decodes the answer; missing keys read as zero or empty.
    /// - Throws: `InvalidArgs` when a known key holds another type.
    public init(dbusValue: DBusValue) throws {
        let record = try VariantRecord("push answer", dbusValue: dbusValue)
        func count(_ key: String) throws -> Int { Int(try record.value(key, or: UInt32(0))) }
        self.init(
            written: try count("written"), macroSlots: try count("macro-slots"),
            layersAdded: try count("layers-added"), layersRemoved: try count("layers-removed"),
            layersRenamed: try count("layers-renamed"), dryRun: try record.value("dry-run", or: false),
            verified: try record.value("verified", or: false), saved: try record.value("saved", or: false),
            driver: try record.value("driver", or: ""), changes: try record.value("changes", or: []),
            kept: try record.value("kept", or: []), conflicts: try record.value("conflicts", or: []),
            uneditedWrites: try count("unedited-writes"), problems: try record.value("problems", or: []))
    }

    /// The answer as `a{sv}`: `written`, `macro-slots`, `layers-added`, `layers-removed`, `layers-renamed` (u),
    /// `dry-run`, `verified`, `saved` (b),
    /// `driver` (s), `changes` (`a(usss)`), `kept`, `conflicts` (`a(ussss)`), `unedited-writes` (u), `problems`
    /// (`a(usss)`).
    public var dbusValue: DBusValue {
        var record = VariantRecord("push answer")
        record.set("written", UInt32(clamping: written))
        record.set("macro-slots", UInt32(clamping: macroSlots))
        record.set("layers-added", UInt32(clamping: layersAdded))
        record.set("layers-removed", UInt32(clamping: layersRemoved))
        record.set("layers-renamed", UInt32(clamping: layersRenamed))
        record.set("dry-run", dryRun)
        record.set("verified", verified)
        record.set("saved", saved)
        record.set("driver", driver)
        record.set("changes", changes)
        record.set("kept", kept)
        record.set("conflicts", conflicts)
        record.set("unedited-writes", UInt32(clamping: uneditedWrites))
        record.set("problems", problems)
        return record.dbusValue
    }
}
