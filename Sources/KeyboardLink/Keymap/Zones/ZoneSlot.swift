/// A zone on a layer: the unit a draft is kept in and zone operations work on.
package struct ZoneSlot: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The zone.
    package var zone: ZoneID
    /// The layer.
    package var layer: Int

    /// Creates a slot.
    package init(_ zone: ZoneID, layer: Int) {
        self.zone = zone
        self.layer = layer
    }

    package static func < (lhs: ZoneSlot, rhs: ZoneSlot) -> Bool { (lhs.zone, lhs.layer) < (rhs.zone, rhs.layer) }

    package var description: String { "\(zone) zone on layer \(layer)" }
}
