import KBlinkAPI
import KeyboardLinkDBus

extension KeymapObject {
    /// `GetPhysicalLayouts() -> a(sub)` and `SetPhysicalLayout(u index, b force) -> a{sv}`: the keyboard's physical
    /// layouts (ZMK Studio), read from it and switched on it.
    static func physicalLayoutMethods(_ writer: KeymapWriter) -> [DBusMethod] {
        typealias Keymap = KBlinkContract.Keymap
        return [
            DBusMethod(Keymap.getPhysicalLayouts) { [weak writer] (call: MethodCallContext) in
                let address = try call.keyboardAddress()
                guard let writer else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await writer.physicalLayouts(address)
            },
            DBusMethod(Keymap.setPhysicalLayout) {
                [weak writer] (call: MethodCallContext, index: UInt32, force: Bool) in
                let address = try call.keyboardAddress()
                // ZMK reads the index as one byte; a larger one would name another layout.
                guard index <= UInt32(UInt8.max) else {
                    throw KBlinkError.invalidArgs("physical layout \(index) does not exist (at most 255)")
                }
                guard let writer else { throw KBlinkError.failed("kblinkd is stopping") }
                return try await writer.setPhysicalLayout(address, index: Int(index), force: force)
            },
        ]
    }
}
