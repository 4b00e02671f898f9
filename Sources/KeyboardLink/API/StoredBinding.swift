import KeyboardLinkDBus

/// The answer of `SetBinding`: the binding as kblinkd stored it, with the key and the action as it resolved them
/// (a keycap label such as `ENT` names the key `ENTER`; `LCTRL` is stored as `KC_LCTL`), and whether the keyboard's
/// firmware can hold the action, as far as kblinkd knows without asking the keyboard.
///
/// On the wire `(sussbs)`: zone, layer, key, action, firmware checked, firmware problem.
public struct StoredBinding: Sendable, Equatable, DBusWireMapped {
    /// The key's zone (`standard`, `number`, `function`, `navigation`).
    public var zone: String
    /// The layer.
    public var layer: UInt32
    /// The key's name (`ENTER`).
    public var key: String
    /// The action in QMK spelling (`KC_LCTL`, `MACRO(sig)`).
    public var action: String
    /// Whether kblinkd knew whether the keyboard's firmware can hold the action: true when it learned what the
    /// firmware holds on the keyboard's current connection, or when there is no firmware to ask (the keyboard is
    /// not connected, or speaks no protocol kblink writes); false when only `CheckAction` (which asks the keyboard)
    /// can tell.
    public var firmwareChecked: Bool
    /// Why the keyboard's firmware cannot hold the action (a push would refuse it); empty when it can, or when
    /// that is not known (``firmwareChecked``).
    public var firmwareProblem: String

    /// A stored binding as given.
    public init(
        zone: String, layer: UInt32, key: String, action: String, firmwareChecked: Bool, firmwareProblem: String
    ) {
        self.zone = zone
        self.layer = layer
        self.key = key
        self.action = action
        self.firmwareChecked = firmwareChecked
        self.firmwareProblem = firmwareProblem
    }

    /// `(sussbs)`: zone, layer, key, action, firmware checked, firmware problem.
    public typealias WireForm = DBusStruct<String, UInt32, String, String, Bool, String>

    /// A stored binding from `(sussbs)`.
    public init(wireForm: WireForm) {
        let (zone, layer, key, action, checked, problem) = wireForm.fields
        self.init(
            zone: zone, layer: layer, key: key, action: action, firmwareChecked: checked, firmwareProblem: problem)
    }

    /// The stored binding as `(sussbs)`.
    public var wireForm: WireForm { WireForm(zone, layer, key, action, firmwareChecked, firmwareProblem) }
}
