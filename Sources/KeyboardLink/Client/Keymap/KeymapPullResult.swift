import KBlinkAPI
import KeyboardLinkDBus

/// The answer of `org.kblink1.Keymap.Pull`.
public struct KeymapPullResult: Sendable, Equatable {
    /// Bindings whose pulled action differed from the draft's.
    public var changed: Int
    /// Bindings read (layers pulled times the layout's keys).
    public var bindings: Int
    /// Layers pulled.
    public var layers: Int
    /// Layers the keyboard holds.
    public var deviceLayers: Int
    /// Macros the pulled bindings play.
    public var macros: Int
    /// Bindings kblink cannot express, pulled as the layer's cleared action.
    public var unknown: Int
    /// The driver used (`zmk-studio`, `via`).
    public var driver: String
    /// Whether the pull replaced edits of the draft and was recorded as an edit (one `undo()` brings them back);
    /// false when the keyboard's keymap simply became the base.
    public var undoable: Bool

    /// Reads the `a{sv}` answer; missing keys read as 0 or empty.
    public init(_ values: [String: DBusValue]) {
        func count(_ key: String) -> Int { Int(values[key]?.unwrapped.integerValue ?? 0) }
        changed = count("changed")
        bindings = count("bindings")
        layers = count("layers")
        deviceLayers = count("device-layers")
        macros = count("macros")
        unknown = count("unknown")
        driver = values["driver"]?.unwrapped.stringValue ?? ""
        undoable = values["undoable"]?.unwrapped.boolValue ?? false
    }
}

extension KeymapClient {
    /// `Pull()`: reads the keyboard's keymap into the draft as one edit (one `undo()` takes it back).
    public func pull() async throws -> KeymapPullResult {
        // A locked ZMK keyboard: the daemon waits up to 30 s for the unlock key, then reads every binding.
        KeymapPullResult(try await proxy.call(KBlinkContract.Keymap.pull, timeout: .seconds(150)))
    }
}
