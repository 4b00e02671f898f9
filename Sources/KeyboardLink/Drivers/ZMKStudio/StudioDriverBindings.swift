import KeyboardLinkKeymap

/// Translates between the keymap model's actions and ZMK Studio bindings, through the behaviours a keyboard
/// lists, found by their display names (ids are local to each firmware build).
///
/// Key presses carry ZMK's key-press parameter (modifiers, usage page, id: `KeyPress.zmkParam1()`); layer
/// behaviours carry the layer index. Macros exist only as firmware behaviours, bound by their display name.
package struct StudioDriverBindings: Sendable, Hashable {
    /// The display names of the behaviours kblink maps to actions.
    package enum Name {
        package static let keyPress = "Key Press"
        package static let momentaryLayer = "Momentary Layer"
        package static let toggleLayer = "Toggle Layer"
        package static let toLayer = "To Layer"
        package static let layerTap = "Layer-Tap"
        package static let transparent = "Transparent"
        package static let none = "None"
        /// Every name above: a behaviour with another name is a candidate macro.
        package static let all: Set<String> = [
            keyPress, momentaryLayer, toggleLayer, toLayer, layerTap, transparent, none,
        ]
    }

    /// Behaviour ids by display name.
    package let ids: [String: UInt32]
    /// Display names by behaviour id.
    package let names: [UInt32: String]

    /// Creates the table from the behaviours' details; the first of two behaviours with one name wins.
    package init(behaviors: [StudioBehaviorDetails]) {
        var ids: [String: UInt32] = [:]
        var names: [UInt32: String] = [:]
        for behavior in behaviors {
            names[behavior.id] = behavior.displayName
            if ids[behavior.displayName] == nil { ids[behavior.displayName] = behavior.id }
        }
        self.ids = ids
        self.names = names
    }

    /// The binding that performs `action`.
    /// - Throws: `DriverError.notSupported` when the firmware lacks the behaviour (naming it, or the macro).
    package func encode(_ action: KeyAction) throws(DriverError) -> StudioBehaviorBinding {
        switch action {
        case .none:
            return StudioBehaviorBinding(behaviorID: try id(Name.none, for: action))
        case .transparent:
            return StudioBehaviorBinding(behaviorID: try id(Name.transparent, for: action))
        case .key(let press):
            return StudioBehaviorBinding(behaviorID: try id(Name.keyPress, for: action), param1: try param(press))
        case .momentaryLayer(let layer):
            return StudioBehaviorBinding(
                behaviorID: try id(Name.momentaryLayer, for: action), param1: UInt32(clamping: layer))
        case .toggleLayer(let layer):
            return StudioBehaviorBinding(
                behaviorID: try id(Name.toggleLayer, for: action), param1: UInt32(clamping: layer))
        case .toLayer(let layer):
            return StudioBehaviorBinding(behaviorID: try id(Name.toLayer, for: action), param1: UInt32(clamping: layer))
        case .layerTap(let layer, let tap):
            return StudioBehaviorBinding(
                behaviorID: try id(Name.layerTap, for: action), param1: UInt32(clamping: layer), param2: try param(tap))
        case .macro(let name):
            guard !Name.all.contains(name.rawValue), let id = ids[name.rawValue], let signed = Int32(exactly: id) else {
                throw .notSupported(
                    "macro \(name) cannot be bound: ZMK has no runtime macros and this firmware defines no macro "
                        + "behaviour named \"\(name)\"; add it to the firmware's keymap, or bind another action")
            }
            return StudioBehaviorBinding(behaviorID: signed)
        case .modTap, .qmkKeycode:
            throw .notSupported(
                "\(action) has no ZMK Studio binding kblink can write; change that key, "
                    + "or set it in the firmware's keymap")
        }
    }

    /// What a binding does, in the keymap model's terms when it can say.
    package func decode(_ binding: StudioBehaviorBinding) -> DeviceKeymap.Binding {
        let behaviorID = UInt32(bitPattern: binding.behaviorID)
        guard let name = names[behaviorID] else { return .other("unknown behaviour \(binding.behaviorID)") }
        let layer = Int(binding.param1)
        switch name {
        case Name.none: return .action(.none)
        case Name.transparent: return .action(.transparent)
        case Name.keyPress: return .action(.key(KeyPress(zmkParam1: binding.param1)))
        case Name.momentaryLayer where layer <= KeyAction.maximumLayer: return .action(.momentaryLayer(layer))
        case Name.toggleLayer where layer <= KeyAction.maximumLayer: return .action(.toggleLayer(layer))
        case Name.toLayer where layer <= KeyAction.maximumLayer: return .action(.toLayer(layer))
        case Name.layerTap where layer <= KeyAction.maximumLayer:
            return .action(.layerTap(layer: layer, tap: KeyPress(zmkParam1: binding.param2)))
        default:
            if !Name.all.contains(name), binding.param1 == 0, binding.param2 == 0, let macro = try? MacroName(name) {
                return .action(.macro(macro))
            }
            return .other("\"\(name)\" \(binding.param1) \(binding.param2)")
        }
    }

    private func id(_ name: String, for action: KeyAction) throws(DriverError) -> Int32 {
        guard let id = ids[name], let signed = Int32(exactly: id) else {
            throw .notSupported(
                "\(action) needs the ZMK \"\(name)\" behaviour, which this firmware does not offer")
        }
        return signed
    }

    private func param(_ press: KeyPress) throws(DriverError) -> UInt32 {
        do {
            return try press.zmkParam1()
        } catch {
            throw .notSupported(error.description)
        }
    }
}
