/// One key of a layout: its name, zone, place, matrix position and what its keycap says.
package struct PhysicalKey: Hashable, Sendable {
    /// The stable key name.
    package var name: KeyName
    /// The zone it belongs to.
    package var zone: ZoneID
    /// Where it sits, in key units.
    package var frame: KeyFrame
    /// Its switch-matrix position.
    package var matrix: MatrixPosition
    /// What layer 0 does by default: what the keycap says.
    package var defaultAction: KeyAction

    /// Creates a key.
    package init(name: KeyName, zone: ZoneID, frame: KeyFrame, matrix: MatrixPosition, defaultAction: KeyAction) {
        self.name = name
        self.zone = zone
        self.frame = frame
        self.matrix = matrix
        self.defaultAction = defaultAction
    }

    /// The action a key name suggests: `FN` is `MO(1)`, other names are read as `KC_<name>` or as an action name,
    /// and names that are neither do nothing.
    package static func impliedAction(for name: KeyName) -> KeyAction {
        if name.rawValue == "FN" { return .momentaryLayer(1) }
        if let action = try? KeyAction(parsing: "KC_" + name.rawValue) { return action }
        if let action = try? KeyAction(parsing: name.rawValue), case .key = action { return action }
        return .none
    }
}
