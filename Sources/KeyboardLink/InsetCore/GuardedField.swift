/// A text field the guardian knows about: its name and its frame in view coordinates.
package struct GuardedField: Equatable, Sendable {
    /// The field's name.
    package var id: FieldID
    /// The field's frame in view coordinates.
    package var frame: Rect

    /// Creates a field.
    package init(id: FieldID, frame: Rect) {
        self.id = id
        self.frame = frame
    }
}
