/// `zmk.keymap.BehaviorBinding`: a behaviour and its two parameters, bound to one key.
package struct StudioBehaviorBinding: ProtobufMessage, Hashable {
    /// Field 1 (`sint32`): the behaviour's local id on this keyboard.
    package var behaviorID: Int32
    /// Field 2: the first parameter; for "Key Press" see `StudioHIDUsage`.
    package var param1: UInt32
    /// Field 3: the second parameter.
    package var param2: UInt32

    /// Creates a binding.
    package init(behaviorID: Int32, param1: UInt32 = 0, param2: UInt32 = 0) {
        self.behaviorID = behaviorID
        self.param1 = param1
        self.param2 = param2
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeSInt32(behaviorID, field: 1)
        writer.writeUInt32(param1, field: 2)
        writer.writeUInt32(param2, field: 3)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        behaviorID = 0
        param1 = 0
        param2 = 0
        while let field = try reader.nextField() {
            switch field {
            case 1: behaviorID = try reader.readSInt32()
            case 2: param1 = try reader.readUInt32()
            case 3: param2 = try reader.readUInt32()
            default: break
            }
        }
    }
}
