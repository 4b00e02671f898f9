/// A text field the guardian knows about: its name and its frame in view coordinates.
public struct GuardedField: Equatable, Sendable {
    /// The field's name.
    public var id: FieldID
    /// The field's frame in view coordinates.
    public var frame: Rect

    /// Creates a field.
    public init(id: FieldID, frame: Rect) {
        self.id = id
        self.frame = frame
    }
}
