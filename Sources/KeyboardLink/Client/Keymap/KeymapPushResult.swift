import KBlinkAPI
import KeyboardLinkDBus

/// The answer of `org.kblink1.Keymap.Push`.
public struct KeymapPushResult: Sendable, Equatable {
    /// One binding written (or to write).
    public struct Change: Sendable, Equatable {
        /// The layer.
        public var layer: Int
        /// The key.
        public var key: String
        /// What the keyboard held.
        public var old: String
        /// What was (or would be) written.
        public var new: String
    }

    /// Bindings written (0 for a dry run).
    public var written: Int
    /// VIA macro slots written (or, for a dry run, to write).
    public var macroSlots: Int
    /// Layers added after the keyboard's last one (ZMK Studio; or, for a dry run, to add).
    public var layersAdded: Int
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
    /// A binding the firmware cannot hold.
    public struct Problem: Sendable, Equatable {
        /// The layer.
        public var layer: Int
        /// The key.
        public var key: String
        /// The action (QMK spelling).
        public var action: String
        /// Why the firmware cannot hold it.
        public var reason: String
    }

    /// Bindings the firmware cannot hold: a dry run lists them all; a real push is refused before writing.
    public var problems: [Problem]

    /// A key the base, the draft and the keyboard disagree on.
    public struct Difference: Sendable, Equatable {
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
    }

    /// Keys the keyboard changed by itself since the base: kept (and adopted into the base by a push).
    public var kept: [Difference]
    /// Keys both the draft and the keyboard changed, differently: a dry run lists them; a push stops on them.
    public var conflicts: [Difference]
    /// With `overwrite`: the bindings written (or, for a dry run, to write) that the draft had not changed.
    public var uneditedWrites: Int

    /// Reads the `a{sv}` answer; missing keys read as empty.
    public init(_ values: [String: DBusValue]) {
        func flag(_ key: String) -> Bool { values[key]?.unwrapped.boolValue ?? false }
        written = Int(values["written"]?.unwrapped.integerValue ?? 0)
        macroSlots = Int(values["macro-slots"]?.unwrapped.integerValue ?? 0)
        layersAdded = Int(values["layers-added"]?.unwrapped.integerValue ?? 0)
        dryRun = flag("dry-run")
        verified = flag("verified")
        saved = flag("saved")
        driver = values["driver"]?.unwrapped.stringValue ?? ""
        changes = (values["changes"]?.unwrapped.arrayValue ?? []).compactMap { row in
            guard case .structure(let fields) = row, fields.count == 4, case .uint32(let layer) = fields[0],
                case .string(let key) = fields[1], case .string(let old) = fields[2], case .string(let new) = fields[3]
            else { return nil }
            return Change(layer: Int(layer), key: key, old: old, new: new)
        }
        func differences(_ key: String) -> [Difference] {
            (values[key]?.unwrapped.arrayValue ?? []).compactMap { row in
                guard case .structure(let fields) = row, fields.count == 5, case .uint32(let layer) = fields[0],
                    case .string(let key) = fields[1], case .string(let base) = fields[2],
                    case .string(let draft) = fields[3], case .string(let keyboard) = fields[4]
                else { return nil }
                return Difference(layer: Int(layer), key: key, base: base, draft: draft, keyboard: keyboard)
            }
        }
        kept = differences("kept")
        conflicts = differences("conflicts")
        uneditedWrites = Int(values["unedited-writes"]?.unwrapped.integerValue ?? 0)
        problems = (values["problems"]?.unwrapped.arrayValue ?? []).compactMap { row in
            guard case .structure(let fields) = row, fields.count == 4, case .uint32(let layer) = fields[0],
                case .string(let key) = fields[1], case .string(let action) = fields[2],
                case .string(let reason) = fields[3]
            else { return nil }
            return Problem(layer: Int(layer), key: key, action: action, reason: reason)
        }
    }
}

extension KeymapClient {
    /// `CheckAction`: why the keyboard's firmware cannot hold `action`, or nil when it can.
    public func check(action: String, callTimeout: Duration = .seconds(10)) async throws -> String? {
        let answer = try await proxy.call(KBlinkContract.Keymap.checkAction, action, timeout: callTimeout)
        return KeymapPushResult(answer).problems.first?.reason
    }

    /// `Push(a{sv})`: writes the draft to the keyboard (or, with `dryRun`, says what would be written).
    /// - Parameters:
    ///   - unlockTimeout: seconds to wait for a locked keyboard to be unlocked; nil for the daemon's default.
    ///   - applyOnConnect: after a successful push, turn re-applying on connect on or off; nil leaves it.
    ///   - overwrite: make the keyboard equal to the whole draft instead of writing only the user's edits.
    ///   - keepKeyboard: where both the draft and the keyboard changed a key, keep the keyboard's binding.
    ///   - callTimeout: how long to wait for the answer; nil for long enough to unlock and write every binding.
    public func push(
        dryRun: Bool = false, verify: Bool = true, unlockTimeout: UInt32? = nil, applyOnConnect: Bool? = nil,
        overwrite: Bool = false, keepKeyboard: Bool = false, callTimeout: Duration? = nil
    ) async throws -> KeymapPushResult {
        var options: [String: DBusValue] = ["dry-run": .boolean(dryRun), "verify": .boolean(verify)]
        if let unlockTimeout { options["unlock-timeout"] = .uint32(unlockTimeout) }
        if overwrite { options["overwrite"] = .boolean(true) }
        if keepKeyboard { options["keep-keyboard"] = .boolean(true) }
        if let applyOnConnect { options["apply-on-connect"] = .boolean(applyOnConnect) }
        // The daemon may wait for the unlock key (30 s unless told) and then write every binding.
        let waiting = Duration.seconds(Int(unlockTimeout ?? 30)) + .seconds(120)
        return KeymapPushResult(
            try await proxy.call(KBlinkContract.Keymap.push, options, timeout: callTimeout ?? waiting))
    }
}
