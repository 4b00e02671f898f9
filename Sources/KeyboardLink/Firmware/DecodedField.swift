/// A value decoded from bytes a device sent, with a note when something was wrong with them.
///
/// A malformed value never throws past the decoder: the value is dropped (or kept in a lossy form) and the note
/// says what was wrong, for logs and for the `notes` of ``FirmwareInfo``.
package struct DecodedField<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The value; nil when the device sent nothing usable.
    package var value: Value?
    /// What was wrong, in words for the user (`serial number is not valid UTF-8`); nil when nothing was.
    package var note: String?

    /// Creates a decoded field.
    package init(value: Value?, note: String? = nil) {
        self.value = value
        self.note = note
    }
}
