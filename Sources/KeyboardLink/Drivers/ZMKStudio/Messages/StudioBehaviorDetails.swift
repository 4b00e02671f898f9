/// `zmk.behaviors.GetBehaviorDetailsResponse`: a behaviour's id and display name ("Key Press", ...).
///
/// The parameter metadata (field 3) is not interpreted; each entry's raw bytes are kept so that re-encoding
/// loses nothing.
package struct StudioBehaviorDetails: ProtobufMessage, Equatable {
    /// Field 1: the behaviour's local id, as used in `StudioBehaviorBinding.behaviorID`.
    package var id: UInt32
    /// Field 2: the name ZMK shows for it, such as "Key Press" or "Momentary Layer".
    package var displayName: String
    /// Field 3: each `BehaviorBindingParametersSet`, undecoded.
    package var rawMetadata: [[UInt8]]

    /// Creates behaviour details.
    package init(id: UInt32, displayName: String, rawMetadata: [[UInt8]] = []) {
        self.id = id
        self.displayName = displayName
        self.rawMetadata = rawMetadata
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(id, field: 1)
        writer.writeString(displayName, field: 2)
        for entry in rawMetadata {
            writer.writeBytes(entry, field: 3, emitDefault: true)
        }
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        id = 0
        displayName = ""
        rawMetadata = []
        while let field = try reader.nextField() {
            switch field {
            case 1: id = try reader.readUInt32()
            case 2: displayName = try reader.readString()
            case 3: rawMetadata.append(try reader.readBytes())
            default: break
            }
        }
    }
}
