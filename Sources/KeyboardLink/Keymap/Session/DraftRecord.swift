/// What is saved of an edit session besides its base: the operation log and the zone on show.
///
/// Replaying `operations[..<cursor]` onto the base gives the draft; the rest is the redo tail.
public struct DraftRecord: Hashable, Sendable {
    /// The zone the editor shows.
    public var currentZone: ZoneID
    /// Every logged operation, applied ones first.
    public var operations: [EditOperation]
    /// How many operations are applied.
    public var cursor: Int

    /// Creates a record.
    public init(currentZone: ZoneID, operations: [EditOperation], cursor: Int) {
        self.currentZone = currentZone
        self.operations = operations
        self.cursor = cursor
    }
}
