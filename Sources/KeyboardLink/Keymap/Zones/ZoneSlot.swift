/// A zone on a layer: the unit a draft is kept in and zone operations work on.
public struct ZoneSlot: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The zone.
    public var zone: ZoneID
    /// The layer.
    public var layer: Int

    /// Creates a slot.
    public init(_ zone: ZoneID, layer: Int) {
        self.zone = zone
        self.layer = layer
    }

    public static func < (lhs: ZoneSlot, rhs: ZoneSlot) -> Bool { (lhs.zone, lhs.layer) < (rhs.zone, rhs.layer) }

    public var description: String { "\(zone) zone on layer \(layer)" }
}
