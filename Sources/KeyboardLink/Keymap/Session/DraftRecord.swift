/// What is saved of an edit session besides its base: the operation log and the zone on show.
///
/// Replaying `operations[..<cursor]` onto the base gives the draft; the rest is the redo tail.
package struct DraftRecord: Hashable, Sendable {
    /// The zone the editor shows.
    package var currentZone: ZoneID
    /// Every logged operation, applied ones first.
    package var operations: [EditOperation]
    /// How many operations are applied.
    package var cursor: Int

    /// Creates a record.
    package init(currentZone: ZoneID, operations: [EditOperation], cursor: Int) {
        self.currentZone = currentZone
        self.operations = operations
        self.cursor = cursor
    }
}
